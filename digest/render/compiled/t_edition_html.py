from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'edition.html'

def root(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    parent_template = None
    l_0_m = missing
    pass
    parent_template = environment.get_template('base.html', 'edition.html')
    for name, parent_block in parent_template.blocks.items():
        context.blocks.setdefault(name, []).append(parent_block)
    l_0_m = context.vars['m'] = environment.get_template('_macros.html', 'edition.html')._get_default_module(context)
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
    l_0_structured = resolve('structured')
    pass
    yield escape(context.call(l_0_super, _block_vars=_block_vars))
    yield '\n<script type="application/ld+json">\n'
    yield escape((undefined(name='structured') if l_0_structured is missing else l_0_structured))
    yield '\n</script>\n'

def block_main(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_page = resolve('page')
    l_0_project = resolve('project')
    l_0_edition = resolve('edition')
    l_0_site = resolve('site')
    l_0_corrections = resolve('corrections')
    l_0_m = resolve('m')
    l_0_count = resolve('count')
    l_0_prev = resolve('prev')
    l_0_next = resolve('next')
    try:
        t_1 = environment.tests['none']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No test named 'none' found.")
    pass
    yield '<article class="edition" data-pagefind-body>\n<header class="edition-head">\n<p class="kicker"><a href="'
    yield escape(environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'root'))
    yield escape(environment.getattr((undefined(name='project') if l_0_project is missing else l_0_project), 'path'))
    yield '">'
    yield escape(environment.getattr((undefined(name='project') if l_0_project is missing else l_0_project), 'label'))
    yield '</a> · <time datetime="'
    yield escape(environment.getattr(environment.getattr((undefined(name='edition') if l_0_edition is missing else l_0_edition), 'entry'), 'date_iso'))
    yield '">'
    yield escape(environment.getattr(environment.getattr((undefined(name='edition') if l_0_edition is missing else l_0_edition), 'entry'), 'date_label'))
    yield '</time></p>\n<h1 class="headline">'
    yield escape(environment.getattr(environment.getattr((undefined(name='edition') if l_0_edition is missing else l_0_edition), 'entry'), 'headline'))
    yield '</h1>\n<p class="byline">By '
    yield escape(environment.getattr((undefined(name='site') if l_0_site is missing else l_0_site), 'publisher'))
    yield ' · Filed <time datetime="'
    yield escape(environment.getattr((undefined(name='edition') if l_0_edition is missing else l_0_edition), 'filed_iso'))
    yield '">'
    yield escape(environment.getattr((undefined(name='edition') if l_0_edition is missing else l_0_edition), 'filed_label'))
    yield '</time> · About <a href="'
    yield escape(environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'root'))
    yield escape(environment.getattr((undefined(name='project') if l_0_project is missing else l_0_project), 'path'))
    yield '">'
    yield escape(environment.getattr((undefined(name='project') if l_0_project is missing else l_0_project), 'label'))
    yield '</a></p>\n'
    if environment.getattr(environment.getattr((undefined(name='edition') if l_0_edition is missing else l_0_edition), 'entry'), 'dek'):
        pass
        yield '<p class="dek">'
        yield escape(environment.getattr(environment.getattr((undefined(name='edition') if l_0_edition is missing else l_0_edition), 'entry'), 'dek'))
        yield '</p>\n'
    yield '</header>\n'
    for l_1_c in (undefined(name='corrections') if l_0_corrections is missing else l_0_corrections):
        _loop_vars = {}
        pass
        yield '<aside class="notice correction" aria-label="'
        yield escape(('Correction' if (environment.getattr(l_1_c, 'kind') == 'revert') else 'Update'))
        yield '">\n<p><strong>'
        yield escape(('Correction' if (environment.getattr(l_1_c, 'kind') == 'revert') else 'Update'))
        yield ', '
        yield escape(environment.getattr(l_1_c, 'date_label'))
        yield ':</strong> '
        yield escape(environment.getattr(l_1_c, 'target'))
        yield ', cited here, '
        yield escape(('was reverted' if (environment.getattr(l_1_c, 'kind') == 'revert') else 'landed again'))
        yield ' by '
        if environment.getattr(l_1_c, 'by_url'):
            pass
            yield '<a href="'
            yield escape(environment.getattr(l_1_c, 'by_url'))
            yield '" rel="noopener noreferrer">'
            yield escape(environment.getattr(l_1_c, 'by_label'))
            yield '</a>'
        else:
            pass
            yield escape(environment.getattr(l_1_c, 'by_label'))
        yield ', as reported in <a href="'
        yield escape(environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'root'))
        yield escape(environment.getattr(environment.getattr(l_1_c, 'edition'), 'path'))
        yield '">'
        yield escape(environment.getattr(environment.getattr(l_1_c, 'edition'), 'label'))
        yield '</a>.</p>\n</aside>\n'
    l_1_c = missing
    if environment.getattr((undefined(name='edition') if l_0_edition is missing else l_0_edition), 'failures'):
        pass
        yield '<aside class="notice" aria-label="Coverage">\n<p>Not covered: these repositories could not be read for this edition.</p>\n<ul>\n'
        for l_1_failure in environment.getattr((undefined(name='edition') if l_0_edition is missing else l_0_edition), 'failures'):
            _loop_vars = {}
            pass
            yield '<li><span class="repo">'
            yield escape(environment.getattr(l_1_failure, 'repo'))
            yield '</span>: '
            yield escape(environment.getattr(l_1_failure, 'reason'))
            yield '</li>\n'
        l_1_failure = missing
        yield '</ul>\n</aside>\n'
    yield escape(context.call(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'body'), (undefined(name='edition') if l_0_edition is missing else l_0_edition), _block_vars=_block_vars))
    yield escape(context.call(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'actions'), (undefined(name='edition') if l_0_edition is missing else l_0_edition), _block_vars=_block_vars))
    yield escape(context.call(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'references'), (undefined(name='edition') if l_0_edition is missing else l_0_edition), environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'root'), _block_vars=_block_vars))
    if environment.getattr((undefined(name='edition') if l_0_edition is missing else l_0_edition), 'newcomers'):
        pass
        yield '<section class="newcomers" aria-labelledby="newcomers">\n<h2 id="newcomers">New contributors</h2>\n<p>First merged pull request in the repository, as far back as the Wire\'s records go ('
        yield escape(environment.getattr((undefined(name='edition') if l_0_edition is missing else l_0_edition), 'history_since'))
        yield '):</p>\n<ul>\n'
        for l_1_n in environment.getattr((undefined(name='edition') if l_0_edition is missing else l_0_edition), 'newcomers'):
            _loop_vars = {}
            pass
            yield '<li>'
            yield escape(environment.getattr(l_1_n, 'author'))
            yield ' · <span class="repo">'
            yield escape(environment.getattr(l_1_n, 'repo'))
            yield '</span>'
            if (not t_1(environment.getattr(l_1_n, 'number'))):
                pass
                yield ' '
                if environment.getattr(l_1_n, 'url'):
                    pass
                    yield '<a href="'
                    yield escape(environment.getattr(l_1_n, 'url'))
                    yield '" rel="noopener noreferrer">#'
                    yield escape(environment.getattr(l_1_n, 'number'))
                    yield '</a>'
                else:
                    pass
                    yield '#'
                    yield escape(environment.getattr(l_1_n, 'number'))
            yield '</li>\n'
        l_1_n = missing
        yield '</ul>\n</section>\n'
    if environment.getattr((undefined(name='edition') if l_0_edition is missing else l_0_edition), 'faq'):
        pass
        yield '<section class="faq" aria-labelledby="faq">\n<h2 id="faq">Questions</h2>\n'
        for l_1_entry in environment.getattr((undefined(name='edition') if l_0_edition is missing else l_0_edition), 'faq'):
            _loop_vars = {}
            pass
            yield '<details>\n<summary>'
            yield escape(environment.getattr(l_1_entry, 'question'))
            yield '</summary>\n<p class="answer">'
            yield escape(environment.getattr(l_1_entry, 'answer'))
            yield '</p>\n</details>\n'
        l_1_entry = missing
        yield '</section>\n'
    if environment.getattr((undefined(name='edition') if l_0_edition is missing else l_0_edition), 'changes'):
        pass
        yield '<details class="changes">\n<summary>All '
        yield escape(context.call((undefined(name='count') if l_0_count is missing else l_0_count), environment.getattr(environment.getattr((undefined(name='edition') if l_0_edition is missing else l_0_edition), 'entry'), 'change_count'), 'change', _block_vars=_block_vars))
        yield ' of the day</summary>\n<ul class="change-list">\n'
        for l_1_change in environment.getattr((undefined(name='edition') if l_0_edition is missing else l_0_edition), 'changes'):
            _loop_vars = {}
            pass
            yield '<li><span class="kind">'
            yield escape(environment.getattr(l_1_change, 'kind'))
            yield '</span> '
            yield escape(context.call(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'pull'), l_1_change, _loop_vars=_loop_vars))
            if (not environment.getattr(l_1_change, 'files_complete')):
                pass
                yield ' <span class="meta incomplete">(not every changed file could be read)</span>'
            yield '</li>\n'
        l_1_change = missing
        yield '</ul>\n</details>\n'
    if environment.getattr((undefined(name='edition') if l_0_edition is missing else l_0_edition), 'topics'):
        pass
        yield '<p class="tags">Topics:'
        for l_1_topic in environment.getattr((undefined(name='edition') if l_0_edition is missing else l_0_edition), 'topics'):
            _loop_vars = {}
            pass
            yield ' <a href="'
            yield escape(environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'root'))
            yield escape(environment.getattr(l_1_topic, 'path'))
            yield '">'
            yield escape(environment.getattr(l_1_topic, 'label'))
            yield '</a>'
        l_1_topic = missing
        yield '</p>\n'
    if ((undefined(name='prev') if l_0_prev is missing else l_0_prev) or (undefined(name='next') if l_0_next is missing else l_0_next)):
        pass
        yield '<nav class="prevnext" aria-label="More '
        yield escape(environment.getattr((undefined(name='project') if l_0_project is missing else l_0_project), 'label'))
        yield ' editions">\n'
        if (undefined(name='prev') if l_0_prev is missing else l_0_prev):
            pass
            yield '<a class="prev" rel="prev" href="'
            yield escape(environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'root'))
            yield escape(environment.getattr((undefined(name='prev') if l_0_prev is missing else l_0_prev), 'path'))
            yield '">← '
            yield escape(environment.getattr((undefined(name='prev') if l_0_prev is missing else l_0_prev), 'label'))
            yield '</a>\n'
        if (undefined(name='next') if l_0_next is missing else l_0_next):
            pass
            yield '<a class="next" rel="next" href="'
            yield escape(environment.getattr((undefined(name='page') if l_0_page is missing else l_0_page), 'root'))
            yield escape(environment.getattr((undefined(name='next') if l_0_next is missing else l_0_next), 'path'))
            yield '">'
            yield escape(environment.getattr((undefined(name='next') if l_0_next is missing else l_0_next), 'label'))
            yield ' →</a>\n'
        yield '</nav>\n'
    if environment.getattr((undefined(name='edition') if l_0_edition is missing else l_0_edition), 'writer'):
        pass
        yield '<p class="colophon">Written by the '
        yield escape(environment.getattr((undefined(name='edition') if l_0_edition is missing else l_0_edition), 'writer'))
        yield ' writer'
        if environment.getattr((undefined(name='edition') if l_0_edition is missing else l_0_edition), 'writer_note'):
            pass
            yield ' because '
            yield escape(environment.getattr((undefined(name='edition') if l_0_edition is missing else l_0_edition), 'writer_note'))
        yield '.</p>\n'
    yield '</article>\n'

blocks = {'head': block_head, 'main': block_main}
debug_info = '1=13&2=16&3=20&4=30&6=32&9=35&12=59&13=68&14=70&15=81&16=84&19=87&20=91&21=93&24=118&28=121&29=125&34=131&35=132&36=133&37=134&40=137&42=139&43=143&48=164&51=167&53=171&54=173&59=177&61=180&63=182&64=186&69=195&70=198&72=209&73=212&74=214&75=217&77=222&78=225&82=231&83=234'
# Made by `make templates` from templates/edition.html.
