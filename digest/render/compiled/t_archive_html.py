from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'archive.html'

def root(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    parent_template = None
    l_0_m = missing
    pass
    parent_template = environment.get_template('base.html', 'archive.html')
    for name, parent_block in parent_template.blocks.items():
        context.blocks.setdefault(name, []).append(parent_block)
    l_0_m = context.vars['m'] = environment.get_template('_macros.html', 'archive.html')._get_default_module(context)
    context.exported_vars.discard('m')
    yield from parent_template.root_render_func(context)

def block_main(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_count = resolve('count')
    l_0_total = resolve('total')
    l_0_years = resolve('years')
    l_0_m = resolve('m')
    l_0_latest = resolve('latest')
    l_0_page = resolve('page')
    pass
    yield '<header class="page-head">\n<h1 class="page-title">Archive</h1>\n<p class="dek">'
    yield escape(context.call((undefined(name='count') if l_0_count is missing else l_0_count), (undefined(name='total') if l_0_total is missing else l_0_total), 'edition', _block_vars=_block_vars))
    yield ', newest first.</p>\n</header>\n'
    if (undefined(name='years') if l_0_years is missing else l_0_years):
        pass
        yield escape(context.call(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'month_sections'), (undefined(name='latest') if l_0_latest is missing else l_0_latest), environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'root'), _block_vars=_block_vars))
        yield '<section class="by-year" aria-labelledby="by-year">\n<h2 id="by-year">By year and month</h2>\n'
        yield escape(context.call(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'year_list'), (undefined(name='years') if l_0_years is missing else l_0_years), environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'root'), _block_vars=_block_vars))
        yield '</section>\n'
    else:
        pass
        yield '<p class="empty">No editions yet.</p>\n'

blocks = {'main': block_main}
debug_info = '1=13&2=16&3=20&6=35&8=37&9=39&12=41'
# Made by `make templates` from templates/archive.html.
