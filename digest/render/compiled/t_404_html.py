from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '404.html'

def root(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    parent_template = None
    pass
    parent_template = environment.get_template('base.html', '404.html')
    for name, parent_block in parent_template.blocks.items():
        context.blocks.setdefault(name, []).append(parent_block)
    yield from parent_template.root_render_func(context)

def block_main(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_page = resolve('page')
    pass
    yield '<header class="page-head">\n<h1 class="page-title">Page not found</h1>\n<p class="dek">There is no page at this address. It may have been mistyped, or the edition has not been written yet.</p>\n</header>\n<ul class="count-list">\n<li><a href="'
    yield escape(environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'root'))
    yield 'index.html">The front page</a> <span class="count-description">the latest editions</span></li>\n<li><a href="'
    yield escape(environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'root'))
    yield 'archive.html">The archive</a> <span class="count-description">every edition, by year and month</span></li>\n<li><a href="'
    yield escape(environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'root'))
    yield 'search.html">Search</a> <span class="count-description">editions and changes by their words</span></li>\n</ul>\n'

blocks = {'main': block_main}
debug_info = '1=12&2=17&8=27&9=29&10=31'
# Made by `make templates` from templates/404.html.
