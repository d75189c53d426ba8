from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'subscribe.html'

def root(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    parent_template = None
    l_0_m = missing
    pass
    parent_template = environment.get_template('base.html', 'subscribe.html')
    for name, parent_block in parent_template.blocks.items():
        context.blocks.setdefault(name, []).append(parent_block)
    l_0_m = context.vars['m'] = environment.get_template('_macros.html', 'subscribe.html')._get_default_module(context)
    context.exported_vars.discard('m')
    yield from parent_template.root_render_func(context)

def block_main(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_sections = resolve('sections')
    pass
    yield '<header class="page-head">\n<h1 class="page-title">Subscribe</h1>\n<p class="dek">Follow the whole site, one project, one topic, or only what needs doing now.</p>\n<p class="meta">Every feed comes as RSS and as JSON Feed with the same items: paste either link into a feed reader. Items keep their address when an edition is corrected.</p>\n</header>\n'
    for l_1_section in (undefined(name='sections') if l_0_sections is missing else l_0_sections):
        _loop_vars = {}
        pass
        yield '<section class="feeds" aria-labelledby="feeds-'
        yield escape(environment.getattr(l_1_section, 'anchor'))
        yield '">\n<h2 id="feeds-'
        yield escape(environment.getattr(l_1_section, 'anchor'))
        yield '">'
        yield escape(environment.getattr(l_1_section, 'heading'))
        yield '</h2>\n<p class="meta">'
        yield escape(environment.getattr(l_1_section, 'intro'))
        yield '</p>\n<dl class="feed-list">\n'
        for l_2_feed in environment.getattr(l_1_section, 'feeds'):
            l_2_page = resolve('page')
            l_2_m = resolve('m')
            _loop_vars = {}
            pass
            yield '<dt><a href="'
            yield escape(environment.getattr((undefined(name='page') if l_2_page is missing else l_2_page), 'root'))
            yield escape(environment.getattr(environment.getattr(l_2_feed, 'page'), 'path'))
            yield '">'
            yield escape(environment.getattr(l_2_feed, 'name'))
            yield '</a> '
            yield escape(context.call(environment.getattr((undefined(name='m') if l_2_m is missing else l_2_m), 'feed_pair'), l_2_feed, environment.getattr((undefined(name='page') if l_2_page is missing else l_2_page), 'root'), _loop_vars=_loop_vars))
            yield '</dt>\n<dd>'
            yield escape(environment.getattr(l_2_feed, 'carries'))
            yield '</dd>\n'
        l_2_feed = l_2_page = l_2_m = missing
        yield '</dl>\n</section>\n'
    l_1_section = missing

blocks = {'main': block_main}
debug_info = '1=13&2=16&3=20&9=30&10=34&11=36&12=40&14=42&15=48&16=55'
# Made by `make templates` from templates/subscribe.html.
