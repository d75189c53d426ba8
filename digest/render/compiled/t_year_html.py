from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'year.html'

def root(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    parent_template = None
    l_0_m = missing
    pass
    parent_template = environment.get_template('base.html', 'year.html')
    for name, parent_block in parent_template.blocks.items():
        context.blocks.setdefault(name, []).append(parent_block)
    l_0_m = context.vars['m'] = environment.get_template('_macros.html', 'year.html')._get_default_module(context)
    context.exported_vars.discard('m')
    yield from parent_template.root_render_func(context)

def block_main(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_page = resolve('page')
    l_0_heading = resolve('heading')
    l_0_year = resolve('year')
    l_0_years = resolve('years')
    l_0_sections = resolve('sections')
    try:
        t_1 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    pass
    yield '<header class="page-head">\n<p class="kicker"><a href="'
    yield escape(environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'root'))
    yield escape(environment.getattr((undefined(name='heading') if l_0_heading is missing else l_0_heading), 'path'))
    yield '">'
    yield escape(environment.getattr((undefined(name='heading') if l_0_heading is missing else l_0_heading), 'name'))
    yield '</a></p>\n<h1 class="page-title">'
    yield escape((undefined(name='year') if l_0_year is missing else l_0_year))
    yield '</h1>\n'
    if (t_1((undefined(name='years') if l_0_years is missing else l_0_years)) > 1):
        pass
        yield '<nav class="year-nav" aria-label="Years">\n<ul>\n'
        for l_1_y in (undefined(name='years') if l_0_years is missing else l_0_years):
            _loop_vars = {}
            pass
            yield '<li>'
            if (environment.getattr(l_1_y, 'path') == environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'path')):
                pass
                yield '<span aria-current="page">'
                yield escape(environment.getattr(l_1_y, 'label'))
                yield '</span>'
            else:
                pass
                yield '<a href="'
                yield escape(environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'root'))
                yield escape(environment.getattr(l_1_y, 'path'))
                yield '">'
                yield escape(environment.getattr(l_1_y, 'label'))
                yield '</a>'
            yield '</li>\n'
        l_1_y = missing
        yield '</ul>\n</nav>\n'
    yield '</header>\n'
    for l_1_section in (undefined(name='sections') if l_0_sections is missing else l_0_sections):
        _loop_vars = {}
        pass
        yield escape(l_1_section)
    l_1_section = missing

blocks = {'main': block_main}
debug_info = '1=13&2=16&3=20&5=40&6=45&7=47&10=50&11=54&17=71'
# Made by `make templates` from templates/year.html.
