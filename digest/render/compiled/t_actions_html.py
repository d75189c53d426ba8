from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'actions.html'

def root(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    parent_template = None
    l_0_m = missing
    pass
    parent_template = environment.get_template('base.html', 'actions.html')
    for name, parent_block in parent_template.blocks.items():
        context.blocks.setdefault(name, []).append(parent_block)
    l_0_m = context.vars['m'] = environment.get_template('_macros.html', 'actions.html')._get_default_module(context)
    context.exported_vars.discard('m')
    yield from parent_template.root_render_func(context)

def block_head(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_super = context.super('head', block_head)
    _block_vars = {}
    l_0_desk = resolve('desk')
    try:
        t_1 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    pass
    yield escape(context.call(l_0_super, _block_vars=_block_vars))
    yield '\n'
    if (t_1(environment.getattr((undefined(name='desk') if l_0_desk is missing else l_0_desk), 'repos')) > 1):
        pass
        yield '<style>\n'
        for l_1_r in environment.getattr((undefined(name='desk') if l_0_desk is missing else l_0_desk), 'repos'):
            _loop_vars = {}
            pass
            yield '#only-'
            yield escape(environment.getattr(l_1_r, 'key'))
            yield ':target ~ .desk-groups .desk-repo:not(.repo-'
            yield escape(environment.getattr(l_1_r, 'key'))
            yield '),\n#only-'
            yield escape(environment.getattr(l_1_r, 'key'))
            yield ':target ~ .desk-groups .desk-group:not(:has(.repo-'
            yield escape(environment.getattr(l_1_r, 'key'))
            yield ')) { display: none; }\n#only-'
            yield escape(environment.getattr(l_1_r, 'key'))
            yield ':target ~ .desk-filter a[href="#only-'
            yield escape(environment.getattr(l_1_r, 'key'))
            yield '"] { font-weight: 700; color: var(--ink); }\n'
        l_1_r = missing
        yield '</style>\n'

def block_main(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_desk = resolve('desk')
    l_0_count = resolve('count')
    l_0_m = resolve('m')
    l_0_page = resolve('page')
    try:
        t_1 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    pass
    yield '<header class="page-head desk-head">\n<p class="kicker">Action desk</p>\n<h1 class="page-title">'
    yield escape(environment.getattr((undefined(name='desk') if l_0_desk is missing else l_0_desk), 'name'))
    yield ': what to do</h1>\n<p class="meta">'
    yield escape(context.call((undefined(name='count') if l_0_count is missing else l_0_count), environment.getattr((undefined(name='desk') if l_0_desk is missing else l_0_desk), 'total'), 'item', _block_vars=_block_vars))
    yield ' from the last '
    yield escape(environment.getattr((undefined(name='desk') if l_0_desk is missing else l_0_desk), 'days'))
    yield ' days'
    if (not environment.getattr((undefined(name='desk') if l_0_desk is missing else l_0_desk), 'urgency')):
        pass
        yield ', most urgent first'
    yield ', by repository. Act-now items as a feed: '
    yield escape(context.call(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'feed_pair'), environment.getattr((undefined(name='desk') if l_0_desk is missing else l_0_desk), 'feed'), environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'root'), _block_vars=_block_vars))
    yield '</p>\n</header>\n<div class="desk" id="desk">\n<nav class="desk-tabs" aria-label="Urgency">\n<ul>\n'
    for l_1_tab in environment.getattr((undefined(name='desk') if l_0_desk is missing else l_0_desk), 'tabs'):
        _loop_vars = {}
        pass
        yield '<li><a href="'
        yield escape(environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'root'))
        yield escape(environment.getattr(l_1_tab, 'path'))
        yield '"'
        if environment.getattr(l_1_tab, 'current'):
            pass
            yield ' aria-current="page"'
        yield '>'
        yield escape(environment.getattr(l_1_tab, 'label'))
        yield ' <span class="count">'
        yield escape(environment.getattr(l_1_tab, 'count'))
        yield '</span></a></li>\n'
    l_1_tab = missing
    yield '</ul>\n</nav>\n'
    for l_1_r in environment.getattr((undefined(name='desk') if l_0_desk is missing else l_0_desk), 'repos'):
        _loop_vars = {}
        pass
        yield '<span class="desk-target" id="only-'
        yield escape(environment.getattr(l_1_r, 'key'))
        yield '"></span>'
    l_1_r = missing
    if (t_1(environment.getattr((undefined(name='desk') if l_0_desk is missing else l_0_desk), 'repos')) > 1):
        pass
        yield '<p class="desk-filter"><span class="meta">Repository:</span> '
        for l_1_r in environment.getattr((undefined(name='desk') if l_0_desk is missing else l_0_desk), 'repos'):
            _loop_vars = {}
            pass
            yield '<a href="#only-'
            yield escape(environment.getattr(l_1_r, 'key'))
            yield '">'
            yield escape(environment.getattr(l_1_r, 'repo'))
            yield '&nbsp;<span class="count">'
            yield escape(environment.getattr(l_1_r, 'count'))
            yield '</span></a> '
        l_1_r = missing
        yield '<a href="#desk">all</a></p>\n'
    yield '<div class="desk-groups">\n'
    t_2 = 1
    for l_1_group in environment.getattr((undefined(name='desk') if l_0_desk is missing else l_0_desk), 'groups'):
        _loop_vars = {}
        pass
        yield '<section class="desk-group" aria-labelledby="desk-'
        yield escape(environment.getattr(l_1_group, 'urgency'))
        yield '">\n<h2 id="desk-'
        yield escape(environment.getattr(l_1_group, 'urgency'))
        yield '"><span class="badge badge-'
        yield escape(environment.getattr(l_1_group, 'urgency'))
        yield '">'
        yield escape(environment.getattr(l_1_group, 'label'))
        yield '</span> '
        yield escape(context.call((undefined(name='count') if l_0_count is missing else l_0_count), environment.getattr(l_1_group, 'count'), 'item', _loop_vars=_loop_vars))
        yield '</h2>\n'
        for l_2_repo in environment.getattr(l_1_group, 'repos'):
            _loop_vars = {}
            pass
            yield '<div class="desk-repo repo-'
            yield escape(environment.getattr(l_2_repo, 'key'))
            yield '">\n<h3 class="desk-repo-name"><span class="repo">'
            yield escape(environment.getattr(l_2_repo, 'repo'))
            yield '</span></h3>\n'
            yield escape(context.call(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'desk_rows'), environment.getattr(l_2_repo, 'rows'), environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'root'), _loop_vars=_loop_vars))
            yield '</div>\n'
        l_2_repo = missing
        yield '</section>\n'
        t_2 = 0
    l_1_group = missing
    if t_2:
        pass
        yield '<p class="empty">No action items'
        if environment.getattr((undefined(name='desk') if l_0_desk is missing else l_0_desk), 'urgency'):
            pass
            yield ' of this urgency'
        yield ' in the last '
        yield escape(environment.getattr((undefined(name='desk') if l_0_desk is missing else l_0_desk), 'days'))
        yield ' days.</p>\n'
    yield '</div>\n</div>\n'

blocks = {'head': block_head, 'main': block_main}
debug_info = '1=13&2=16&3=20&4=36&5=38&9=41&10=45&11=49&12=53&17=60&20=79&21=81&26=91&27=95&31=108&32=115&33=118&36=132&37=136&38=138&39=146&40=150&41=152&42=154&47=163'
# Made by `make templates` from templates/actions.html.
