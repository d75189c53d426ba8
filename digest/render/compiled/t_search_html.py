from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'search.html'

def root(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    parent_template = None
    pass
    parent_template = environment.get_template('base.html', 'search.html')
    for name, parent_block in parent_template.blocks.items():
        context.blocks.setdefault(name, []).append(parent_block)
    yield from parent_template.root_render_func(context)

def block_head(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_super = context.super('head', block_head)
    _block_vars = {}
    l_0_bundles = resolve('bundles')
    l_0_page = resolve('page')
    pass
    yield escape(context.call(l_0_super, _block_vars=_block_vars))
    yield '\n'
    if (undefined(name='bundles') if l_0_bundles is missing else l_0_bundles):
        pass
        yield '<link rel="stylesheet" href="'
        yield escape(environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'root'))
        yield 'pagefind/'
        yield escape(environment.getitem((undefined(name='bundles') if l_0_bundles is missing else l_0_bundles), 0))
        yield '/pagefind-ui.css">\n'

def block_main(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_page = resolve('page')
    l_0_bundles = resolve('bundles')
    try:
        t_1 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
    pass
    yield '<header class="page-head">\n<h1 class="page-title">Search</h1>\n<p class="dek">Every edition and every change the site has a page for, by their words: a pull request\'s title, a file, a name.</p>\n</header>\n<section class="search" aria-label="Search the site">\n<div id="search" class="search-box" data-root="'
    yield escape(environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'root'))
    yield 'pagefind/" data-merge="'
    yield escape(t_1(context.eval_ctx, (undefined(name='bundles') if l_0_bundles is missing else l_0_bundles)[1:], ' '))
    yield '"></div>\n<noscript><p class="notice">Search runs in the browser and needs JavaScript. Without it, the <a href="'
    yield escape(environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'root'))
    yield 'archive.html">archive</a> lists every edition by month.</p></noscript>\n</section>\n'
    if (undefined(name='bundles') if l_0_bundles is missing else l_0_bundles):
        pass
        yield '<script src="'
        yield escape(environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'root'))
        yield 'pagefind/'
        yield escape(environment.getitem((undefined(name='bundles') if l_0_bundles is missing else l_0_bundles), 0))
        yield '/pagefind-ui.js"></script>\n'
    yield '<script>\n(function () {\n  if (typeof PagefindUI === "undefined") return;\n  var box = document.getElementById("search");\n  var months = box.getAttribute("data-merge").split(" ").filter(Boolean);\n  // The index is a bundle a month: the newest is the main one, the older ones are merged\n  // in, newest first, so that results of equal relevance are listed newest first.\n  var merge = months.map(function (month) {\n    var path = new URL(box.getAttribute("data-root") + month + "/", window.location.href);\n    return { bundlePath: path.pathname };\n  });\n  var ui = new PagefindUI({ element: "#search", showSubResults: true, showImages: false, resetStyles: false, mergeIndex: merge });\n  var q = new URLSearchParams(window.location.search).get("q");\n  if (q) ui.triggerSearch(q);\n})();\n</script>\n'

blocks = {'head': block_head, 'main': block_main}
debug_info = '1=12&2=17&3=28&4=30&5=33&8=38&14=55&15=59&17=61&18=64'
# Made by `make templates` from templates/search.html.
