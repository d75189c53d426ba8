from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_chrome.html'

def root(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_masthead = l_0_footer = missing
    pass
    def macro(l_1_root):
        t_1 = []
        l_1_site = resolve('site')
        l_1_nav = resolve('nav')
        l_1_sections = resolve('sections')
        if l_1_root is missing:
            l_1_root = undefined("parameter 'root' was not provided", name='root')
        pass
        t_1.extend((
            '<header class="masthead">\n<p class="masthead-title"><a href="',
            escape(l_1_root),
            'index.html">',
            escape(environment.getattr((undefined(name='site') if l_1_site is missing else l_1_site), 'title')),
            '</a></p>\n<nav class="masthead-nav" aria-label="Site">\n<ul>\n<li><a href="',
            escape(l_1_root),
            'index.html">Front page</a></li>\n',
        ))
        for l_2_link in (undefined(name='nav') if l_1_nav is missing else l_1_nav):
            _loop_vars = {}
            pass
            t_1.extend((
                '<li><a href="',
                escape(l_1_root),
                escape(environment.getattr(l_2_link, 'path')),
                '">',
                escape(environment.getattr(l_2_link, 'label')),
                '</a></li>\n',
            ))
        l_2_link = missing
        t_1.extend((
            '<li><a href="',
            escape(l_1_root),
            'actions.html">Action desk</a></li>\n<li><a href="',
            escape(l_1_root),
            'archive.html">Archive</a></li>\n<li><a href="',
            escape(l_1_root),
            'search.html">Search</a></li>\n<li><a href="',
            escape(l_1_root),
            'subscribe.html">Subscribe</a></li>\n</ul>\n</nav>\n',
        ))
        if (undefined(name='sections') if l_1_sections is missing else l_1_sections):
            pass
            t_1.append(
                '<nav class="sections-nav" aria-label="Topics">\n<ul>\n',
            )
            for l_2_link in (undefined(name='sections') if l_1_sections is missing else l_1_sections):
                _loop_vars = {}
                pass
                t_1.extend((
                    '<li><a href="',
                    escape(l_1_root),
                    escape(environment.getattr(l_2_link, 'path')),
                    '">',
                    escape(environment.getattr(l_2_link, 'label')),
                    '</a></li>\n',
                ))
            l_2_link = missing
            t_1.append(
                '</ul>\n</nav>\n',
            )
        t_1.append(
            '</header>',
        )
        return concat(t_1)
    context.exported_vars.add('masthead')
    context.vars['masthead'] = l_0_masthead = Macro(environment, macro, 'masthead', ('root',), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_root):
        t_2 = []
        l_1_site = resolve('site')
        if l_1_root is missing:
            l_1_root = undefined("parameter 'root' was not provided", name='root')
        pass
        t_2.extend((
            '<footer class="site-footer">\n<p>Published by ',
            escape(environment.getattr((undefined(name='site') if l_1_site is missing else l_1_site), 'publisher')),
            ' · <a href="',
            escape(l_1_root),
            'archive.html">Archive</a> · <a href="',
            escape(l_1_root),
            'search.html">Search</a> · <a href="',
            escape(l_1_root),
            'subscribe.html">Subscribe: RSS and JSON&nbsp;feeds</a></p>\n</footer>',
        ))
        return concat(t_2)
    context.exported_vars.add('footer')
    context.vars['footer'] = l_0_footer = Macro(environment, macro, 'footer', ('root',), False, False, False, context.eval_ctx.autoescape)

blocks = {}
debug_info = '4=12&6=22&9=26&10=29&11=34&13=43&14=45&15=47&16=49&19=52&22=57&23=62&30=79&32=87'
# Made by `make templates` from templates/_chrome.html.
