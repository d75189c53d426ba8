from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'index.html'

def root(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    parent_template = None
    l_0_m = missing
    pass
    parent_template = environment.get_template('base.html', 'index.html')
    for name, parent_block in parent_template.blocks.items():
        context.blocks.setdefault(name, []).append(parent_block)
    l_0_m = context.vars['m'] = environment.get_template('_macros.html', 'index.html')._get_default_module(context)
    context.exported_vars.discard('m')
    yield from parent_template.root_render_func(context)

def block_main_attrs(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    pass
    yield ' class="wide"'

def block_main(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_site = resolve('site')
    l_0_updated = resolve('updated')
    l_0_recent = resolve('recent')
    l_0_m = resolve('m')
    l_0_page = resolve('page')
    l_0_count = resolve('count')
    l_0_total = resolve('total')
    l_0_counts_heading = resolve('counts_heading')
    l_0_counts = resolve('counts')
    l_0_desk = resolve('desk')
    l_0_subscribe = resolve('subscribe')
    try:
        t_1 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    try:
        t_2 = environment.filters['lower']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'lower' found.")
    pass
    yield '<header class="page-head front-head">\n<h1 class="page-title">Latest editions</h1>\n<p class="dek">'
    yield escape(environment.getattr((undefined(name='site') if l_0_site is missing else l_0_site), 'description'))
    yield '</p>\n'
    if (undefined(name='updated') if l_0_updated is missing else l_0_updated):
        pass
        yield '<p class="updated meta">Updated <time datetime="'
        yield escape(environment.getattr((undefined(name='updated') if l_0_updated is missing else l_0_updated), 'iso'))
        yield '">'
        yield escape(environment.getattr((undefined(name='updated') if l_0_updated is missing else l_0_updated), 'label'))
        yield '</time> · merges through '
        yield escape(environment.getattr((undefined(name='updated') if l_0_updated is missing else l_0_updated), 'through'))
        yield '</p>\n'
    yield '</header>\n<div class="front">\n<div class="front-main">\n'
    if (undefined(name='recent') if l_0_recent is missing else l_0_recent):
        pass
        yield '<section class="recent" aria-label="Most recent editions">\n'
        yield escape(context.call(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'entry_card'), environment.getitem((undefined(name='recent') if l_0_recent is missing else l_0_recent), 0), environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'root'), lead=True, _block_vars=_block_vars))
        if (t_1((undefined(name='recent') if l_0_recent is missing else l_0_recent)) > 1):
            pass
            yield '<div class="card-grid">\n'
            for l_1_entry in (undefined(name='recent') if l_0_recent is missing else l_0_recent)[1:]:
                _loop_vars = {}
                pass
                yield escape(context.call(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'entry_card'), l_1_entry, environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'root'), _loop_vars=_loop_vars))
            l_1_entry = missing
            yield '</div>\n'
        yield '</section>\n<p class="more"><a href="'
        yield escape(environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'root'))
        yield 'archive.html">All '
        yield escape(context.call((undefined(name='count') if l_0_count is missing else l_0_count), (undefined(name='total') if l_0_total is missing else l_0_total), 'edition', _block_vars=_block_vars))
        yield ' in the archive →</a></p>\n'
    else:
        pass
        yield '<p class="empty">No editions yet.</p>\n'
    yield '</div>\n<aside class="front-side" aria-label="Topics, act-now items and feeds">\n<section class="counts" aria-labelledby="counts">\n<h2 id="counts">'
    yield escape((undefined(name='counts_heading') if l_0_counts_heading is missing else l_0_counts_heading))
    yield '</h2>\n<ul class="count-list">\n'
    for l_1_item in (undefined(name='counts') if l_0_counts is missing else l_0_counts):
        _loop_vars = {}
        pass
        yield '<li><a href="'
        yield escape(environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'root'))
        yield escape(environment.getattr(l_1_item, 'path'))
        yield '">'
        yield escape(environment.getattr(l_1_item, 'name'))
        yield '</a>'
        if environment.getattr(l_1_item, 'description'):
            pass
            yield ' <span class="count-description">'
            yield escape(environment.getattr(l_1_item, 'description'))
            yield '</span>'
        yield ' <span class="count">'
        yield escape(context.call((undefined(name='count') if l_0_count is missing else l_0_count), environment.getattr(l_1_item, 'count'), 'edition', _loop_vars=_loop_vars))
        yield '</span></li>\n'
    l_1_item = missing
    yield '</ul>\n</section>\n'
    if (undefined(name='desk') if l_0_desk is missing else l_0_desk):
        pass
        yield '<section class="desk-summary" aria-labelledby="act-now">\n<h2 id="act-now">Act now</h2>\n'
        if environment.getattr((undefined(name='desk') if l_0_desk is missing else l_0_desk), 'rows'):
            pass
            yield escape(context.call(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'desk_rows'), environment.getattr((undefined(name='desk') if l_0_desk is missing else l_0_desk), 'rows'), environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'root'), _block_vars=_block_vars))
        else:
            pass
            yield '<p class="empty">Nothing to act on now in the last '
            yield escape(environment.getattr((undefined(name='desk') if l_0_desk is missing else l_0_desk), 'days'))
            yield ' days.</p>\n'
        yield '<p class="more"><a href="'
        yield escape(environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'root'))
        yield escape(environment.getattr((undefined(name='desk') if l_0_desk is missing else l_0_desk), 'path'))
        yield '">The action desk: '
        l_1_loop = missing
        for (l_1_label, l_1_n), l_1_loop in LoopContext(environment.getattr((undefined(name='desk') if l_0_desk is missing else l_0_desk), 'counts'), undefined):
            _loop_vars = {}
            pass
            yield escape(l_1_n)
            yield ' '
            yield escape(t_2(l_1_label))
            yield escape((', ' if (not environment.getattr(l_1_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 47 in 'index.html' evaluated to false and no else section was defined.")))
        l_1_loop = l_1_label = l_1_n = missing
        yield ' →</a></p>\n</section>\n'
    yield '<section class="subscribe-box" aria-labelledby="subscribe">\n<h2 id="subscribe">Subscribe</h2>\n<ul class="feed-links">\n'
    def t_3(fiter):
        for l_1_feed in fiter:
            if l_1_feed:
                yield l_1_feed
    for l_1_feed in t_3((undefined(name='subscribe') if l_0_subscribe is missing else l_0_subscribe)):
        _loop_vars = {}
        pass
        yield '<li>'
        yield escape(environment.getattr(l_1_feed, 'label'))
        yield ': '
        yield escape(context.call(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'feed_pair'), l_1_feed, environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'root'), _loop_vars=_loop_vars))
        yield '</li>\n'
    l_1_feed = missing
    yield '</ul>\n<p class="more"><a href="'
    yield escape(environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'root'))
    yield 'subscribe.html">Every feed: projects, topics, act-now →</a></p>\n</section>\n</aside>\n</div>\n'

blocks = {'main_attrs': block_main_attrs, 'main': block_main}
debug_info = '1=13&2=16&3=20&4=30&7=62&8=64&9=67&14=74&16=77&17=78&19=81&20=84&25=88&32=96&34=98&35=102&39=117&42=120&43=122&45=126&47=129&53=143&54=151&57=157'
# Made by `make templates` from templates/index.html.
