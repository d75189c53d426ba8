from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'feed_item.html'

def root(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_corrections = resolve('corrections')
    l_0_edition = resolve('edition')
    l_0_link = resolve('link')
    l_0_m = missing
    pass
    l_0_m = context.vars['m'] = environment.get_template('_macros.html', 'feed_item.html')._get_default_module(context)
    context.exported_vars.discard('m')
    for l_1_c in (undefined(name='corrections') if l_0_corrections is missing else l_0_corrections):
        _loop_vars = {}
        pass
        yield '<p><strong>'
        yield escape(('Correction' if (environment.getattr(l_1_c, 'kind') == 'revert') else 'Update'))
        yield ', '
        yield escape(environment.getattr(l_1_c, 'date_label'))
        yield ':</strong> '
        yield escape(environment.getattr(l_1_c, 'target'))
        yield ', cited here, '
        yield escape(('was reverted' if (environment.getattr(l_1_c, 'kind') == 'revert') else 'landed again'))
        yield ' by '
        yield escape(environment.getattr(l_1_c, 'by_label'))
        yield '.</p>\n'
    l_1_c = missing
    if environment.getattr(environment.getattr((undefined(name='edition') if l_0_edition is missing else l_0_edition), 'entry'), 'dek'):
        pass
        yield '<p><strong>'
        yield escape(environment.getattr(environment.getattr((undefined(name='edition') if l_0_edition is missing else l_0_edition), 'entry'), 'dek'))
        yield '</strong></p>\n'
    yield escape(context.call(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'body'), (undefined(name='edition') if l_0_edition is missing else l_0_edition)))
    yield escape(context.call(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'actions'), (undefined(name='edition') if l_0_edition is missing else l_0_edition)))
    yield escape(context.call(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'references'), (undefined(name='edition') if l_0_edition is missing else l_0_edition)))
    yield '<p><a href="'
    yield escape((undefined(name='link') if l_0_link is missing else l_0_link))
    yield '">Read the edition on the site</a></p>\n'

blocks = {}
debug_info = '1=15&2=17&3=21&5=32&6=35&8=37&9=38&10=39&11=41'
# Made by `make templates` from templates/feed_item.html.
