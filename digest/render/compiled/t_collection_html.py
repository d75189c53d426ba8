from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'collection.html'

def root(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    parent_template = None
    l_0_m = missing
    pass
    parent_template = environment.get_template('base.html', 'collection.html')
    for name, parent_block in parent_template.blocks.items():
        context.blocks.setdefault(name, []).append(parent_block)
    l_0_m = context.vars['m'] = environment.get_template('_macros.html', 'collection.html')._get_default_module(context)
    context.exported_vars.discard('m')
    yield from parent_template.root_render_func(context)

def block_main(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_heading = resolve('heading')
    l_0_desk = resolve('desk')
    l_0_m = resolve('m')
    l_0_page = resolve('page')
    l_0_recent = resolve('recent')
    l_0_years = resolve('years')
    try:
        t_1 = environment.filters['lower']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'lower' found.")
    pass
    yield '<header class="page-head">\n<p class="kicker">'
    yield escape(environment.getattr((undefined(name='heading') if l_0_heading is missing else l_0_heading), 'label'))
    yield '</p>\n<h1 class="page-title">'
    yield escape(environment.getattr((undefined(name='heading') if l_0_heading is missing else l_0_heading), 'name'))
    yield '</h1>\n'
    if environment.getattr((undefined(name='heading') if l_0_heading is missing else l_0_heading), 'description'):
        pass
        yield '<p class="dek">'
        yield escape(environment.getattr((undefined(name='heading') if l_0_heading is missing else l_0_heading), 'description'))
        yield '</p>\n'
    if environment.getattr((undefined(name='heading') if l_0_heading is missing else l_0_heading), 'repos'):
        pass
        yield '<p class="meta">Repositories:'
        for l_1_repo in environment.getattr((undefined(name='heading') if l_0_heading is missing else l_0_heading), 'repos'):
            _loop_vars = {}
            pass
            yield ' <span class="repo">'
            yield escape(l_1_repo)
            yield '</span>'
        l_1_repo = missing
        yield '</p>\n'
    yield '<ul class="feed-links meta">\n'
    for l_1_feed in environment.getattr((undefined(name='heading') if l_0_heading is missing else l_0_heading), 'feeds'):
        _loop_vars = {}
        pass
        yield '<li>Editions: '
        yield escape(context.call(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'feed_pair'), l_1_feed, environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'root'), _loop_vars=_loop_vars))
        yield '</li>\n'
    l_1_feed = missing
    if (undefined(name='desk') if l_0_desk is missing else l_0_desk):
        pass
        yield '<li>Act-now items: '
        yield escape(context.call(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'feed_pair'), environment.getattr((undefined(name='desk') if l_0_desk is missing else l_0_desk), 'feed'), environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'root'), _block_vars=_block_vars))
        yield '</li>\n<li><a href="'
        yield escape(environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'root'))
        yield escape(environment.getattr((undefined(name='desk') if l_0_desk is missing else l_0_desk), 'path'))
        yield '">Action desk</a>: '
        l_1_loop = missing
        for (l_1_label, l_1_n), l_1_loop in LoopContext(environment.getattr((undefined(name='desk') if l_0_desk is missing else l_0_desk), 'counts'), undefined):
            _loop_vars = {}
            pass
            yield escape(l_1_n)
            yield ' '
            yield escape(t_1(l_1_label))
            yield escape((', ' if (not environment.getattr(l_1_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 19 in 'collection.html' evaluated to false and no else section was defined.")))
        l_1_loop = l_1_label = l_1_n = missing
        yield ' in '
        yield escape(environment.getattr((undefined(name='desk') if l_0_desk is missing else l_0_desk), 'days'))
        yield ' days</li>\n'
    yield '<li><a href="'
    yield escape(environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'root'))
    yield 'subscribe.html">Every feed</a></li>\n</ul>\n</header>\n'
    if ((undefined(name='desk') if l_0_desk is missing else l_0_desk) and environment.getattr((undefined(name='desk') if l_0_desk is missing else l_0_desk), 'rows')):
        pass
        yield '<section class="desk-summary" aria-labelledby="desk-items">\n<h2 id="desk-items">Action items</h2>\n'
        yield escape(context.call(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'desk_rows'), environment.getattr((undefined(name='desk') if l_0_desk is missing else l_0_desk), 'rows'), environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'root'), _block_vars=_block_vars))
        yield '<p class="more"><a href="'
        yield escape(environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'root'))
        yield escape(environment.getattr((undefined(name='desk') if l_0_desk is missing else l_0_desk), 'path'))
        yield '">Every '
        yield escape(environment.getattr((undefined(name='heading') if l_0_heading is missing else l_0_heading), 'name'))
        yield ' action item, by urgency and repository →</a></p>\n</section>\n'
    if (undefined(name='recent') if l_0_recent is missing else l_0_recent):
        pass
        yield '<section class="recent" aria-label="Latest editions">\n'
        for l_1_entry in (undefined(name='recent') if l_0_recent is missing else l_0_recent):
            l_1_show_project = resolve('show_project')
            _loop_vars = {}
            pass
            yield escape(context.call(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'entry_card'), l_1_entry, environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'root'), (undefined(name='show_project') if l_1_show_project is missing else l_1_show_project), sentence=(environment.getattr((undefined(name='heading') if l_0_heading is missing else l_0_heading), 'kind') == 'topic'), _loop_vars=_loop_vars))
        l_1_entry = l_1_show_project = missing
        yield '</section>\n<section class="archive" aria-labelledby="by-year">\n<h2 id="by-year">Every edition, by year</h2>\n'
        yield escape(context.call(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'year_list'), (undefined(name='years') if l_0_years is missing else l_0_years), environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'root'), _block_vars=_block_vars))
        yield '</section>\n'
    else:
        pass
        yield '<p class="empty">No editions yet.</p>\n'

blocks = {'main': block_main}
debug_info = '1=13&2=16&3=20&5=41&6=43&7=45&8=48&10=50&11=53&14=62&15=66&17=69&18=72&19=74&21=90&24=92&27=95&28=97&31=102&33=105&34=109&39=112'
# Made by `make templates` from templates/collection.html.
