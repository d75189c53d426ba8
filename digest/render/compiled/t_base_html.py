from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'base.html'

def root(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_page = resolve('page')
    l_0_site = resolve('site')
    l_0_chrome = resolve('chrome')
    pass
    yield '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n<meta name="color-scheme" content="light dark">\n<title>'
    yield escape(environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'title'))
    yield '</title>\n<meta name="description" content="'
    yield escape(environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'description'))
    yield '">\n<link rel="canonical" href="'
    yield escape(environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'canonical'))
    yield '">\n<meta property="og:type" content="'
    yield escape(environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'kind'))
    yield '">\n<meta property="og:site_name" content="'
    yield escape(environment.getattr((undefined(name='site') if l_0_site is missing else l_0_site), 'title'))
    yield '">\n<meta property="og:title" content="'
    yield escape(environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'title'))
    yield '">\n<meta property="og:description" content="'
    yield escape(environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'description'))
    yield '">\n<meta property="og:url" content="'
    yield escape(environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'canonical'))
    yield '">\n<meta name="twitter:card" content="summary">\n'
    for l_1_feed in environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'feeds'):
        _loop_vars = {}
        pass
        yield '<link rel="alternate" type="application/rss+xml" title="'
        yield escape(environment.getattr(l_1_feed, 'label'))
        yield '" href="'
        yield escape(environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'root'))
        yield escape(environment.getattr(l_1_feed, 'path'))
        yield '">\n'
        if environment.getattr(l_1_feed, 'json_path'):
            pass
            yield '<link rel="alternate" type="application/feed+json" title="'
            yield escape(environment.getattr(l_1_feed, 'label'))
            yield ' (JSON Feed)" href="'
            yield escape(environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'root'))
            yield escape(environment.getattr(l_1_feed, 'json_path'))
            yield '">\n'
    l_1_feed = missing
    yield '<link rel="stylesheet" href="'
    yield escape(environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'root'))
    yield 'style.css">\n'
    yield from context.blocks['head'][0](context)
    yield '</head>\n<body>\n'
    yield escape(environment.getattr((undefined(name='chrome') if l_0_chrome is missing else l_0_chrome), 'masthead'))
    yield '\n<main'
    yield from context.blocks['main_attrs'][0](context)
    yield '>\n'
    yield from context.blocks['main'][0](context)
    yield '</main>\n'
    yield escape(environment.getattr((undefined(name='chrome') if l_0_chrome is missing else l_0_chrome), 'footer'))
    yield '\n</body>\n</html>\n'

def block_head(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    pass

def block_main_attrs(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    pass

def block_main(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    pass

blocks = {'head': block_head, 'main_attrs': block_main_attrs, 'main': block_main}
debug_info = '7=15&8=17&9=19&10=21&11=23&12=25&13=27&14=29&16=31&17=35&18=40&19=43&22=50&23=52&26=54&27=56&28=58&30=60&23=63&27=72&28=81'
# Made by `make templates` from templates/base.html.
