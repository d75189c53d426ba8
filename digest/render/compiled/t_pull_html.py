from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'pull.html'

def root(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    parent_template = None
    pass
    parent_template = environment.get_template('base.html', 'pull.html')
    for name, parent_block in parent_template.blocks.items():
        context.blocks.setdefault(name, []).append(parent_block)
    yield from parent_template.root_render_func(context)

def block_main(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_pull = resolve('pull')
    l_0_count = resolve('count')
    try:
        t_1 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
    pass
    yield '<article class="pull" data-pagefind-body>\n<header class="page-head">\n<p class="kicker"><span class="repo">'
    yield escape(environment.getattr(environment.getattr((undefined(name='pull') if l_0_pull is missing else l_0_pull), 'page'), 'repo'))
    yield '</span> #'
    yield escape(environment.getattr(environment.getattr((undefined(name='pull') if l_0_pull is missing else l_0_pull), 'page'), 'number'))
    yield '</p>\n<h1 class="page-title">'
    yield escape(environment.getattr((undefined(name='pull') if l_0_pull is missing else l_0_pull), 'heading'))
    yield '</h1>\n<p class="byline">By '
    yield escape(environment.getattr((undefined(name='pull') if l_0_pull is missing else l_0_pull), 'author'))
    yield ' · Merged <time datetime="'
    yield escape(environment.getattr((undefined(name='pull') if l_0_pull is missing else l_0_pull), 'merged_iso'))
    yield '">'
    yield escape(environment.getattr((undefined(name='pull') if l_0_pull is missing else l_0_pull), 'merged_label'))
    yield '</time>'
    if environment.getattr((undefined(name='pull') if l_0_pull is missing else l_0_pull), 'url'):
        pass
        yield ' · <a href="'
        yield escape(environment.getattr((undefined(name='pull') if l_0_pull is missing else l_0_pull), 'url'))
        yield '" rel="noopener noreferrer">On GitHub</a>'
    yield '</p>\n</header>\n'
    for l_1_c in environment.getattr(environment.getattr((undefined(name='pull') if l_0_pull is missing else l_0_pull), 'page'), 'corrections'):
        l_1_page = resolve('page')
        _loop_vars = {}
        pass
        yield '<aside class="notice correction" aria-label="'
        yield escape(('Correction' if (environment.getattr(l_1_c, 'kind') == 'revert') else 'Update'))
        yield '">\n<p><strong>'
        yield escape(('Reverted' if (environment.getattr(l_1_c, 'kind') == 'revert') else 'Landed again'))
        yield ' on '
        yield escape(environment.getattr(l_1_c, 'date_label'))
        yield '</strong> by '
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
        yield ', reported in <a href="'
        yield escape(environment.getattr((undefined(name='page') if l_1_page is missing else l_1_page), 'root'))
        yield escape(environment.getattr(environment.getattr(l_1_c, 'edition'), 'path'))
        yield '">'
        yield escape(environment.getattr(environment.getattr(l_1_c, 'edition'), 'label'))
        yield '</a>.</p>\n</aside>\n'
    l_1_c = l_1_page = missing
    if environment.getattr((undefined(name='pull') if l_0_pull is missing else l_0_pull), 'tldr'):
        pass
        yield '<section class="tldr" aria-labelledby="tldr">\n<h2 id="tldr">In short</h2>\n<p>'
        yield escape(t_1(context.eval_ctx, environment.getattr((undefined(name='pull') if l_0_pull is missing else l_0_pull), 'tldr'), ' '))
        yield '</p>\n</section>\n'
    if environment.getattr((undefined(name='pull') if l_0_pull is missing else l_0_pull), 'review'):
        pass
        yield '<section class="review" aria-labelledby="review">\n<h2 id="review">The review</h2>\n<ul class="review-list">\n'
        if environment.getattr(environment.getattr((undefined(name='pull') if l_0_pull is missing else l_0_pull), 'review'), 'approved_by'):
            pass
            yield '<li><span class="review-label">Approved by</span> '
            yield escape(t_1(context.eval_ctx, environment.getattr(environment.getattr((undefined(name='pull') if l_0_pull is missing else l_0_pull), 'review'), 'approved_by'), ', '))
            yield '</li>'
        if environment.getattr(environment.getattr((undefined(name='pull') if l_0_pull is missing else l_0_pull), 'review'), 'changes_requested_by'):
            pass
            yield '<li><span class="review-label">Changes asked for by</span> '
            yield escape(t_1(context.eval_ctx, environment.getattr(environment.getattr((undefined(name='pull') if l_0_pull is missing else l_0_pull), 'review'), 'changes_requested_by'), ', '))
            yield '</li>'
        if environment.getattr(environment.getattr((undefined(name='pull') if l_0_pull is missing else l_0_pull), 'review'), 'commented_by'):
            pass
            yield '<li><span class="review-label">Reviewed with comments by</span> '
            yield escape(t_1(context.eval_ctx, environment.getattr(environment.getattr((undefined(name='pull') if l_0_pull is missing else l_0_pull), 'review'), 'commented_by'), ', '))
            yield '</li>'
        if (((not environment.getattr(environment.getattr((undefined(name='pull') if l_0_pull is missing else l_0_pull), 'review'), 'approved_by')) and (not environment.getattr(environment.getattr((undefined(name='pull') if l_0_pull is missing else l_0_pull), 'review'), 'changes_requested_by'))) and (not environment.getattr(environment.getattr((undefined(name='pull') if l_0_pull is missing else l_0_pull), 'review'), 'commented_by'))):
            pass
            yield '<li><span class="review-label">Reviews</span> none recorded</li>'
        if environment.getattr(environment.getattr((undefined(name='pull') if l_0_pull is missing else l_0_pull), 'review'), 'discussion'):
            pass
            yield '<li><span class="review-label">Discussion</span> '
            yield escape(environment.getattr(environment.getattr((undefined(name='pull') if l_0_pull is missing else l_0_pull), 'review'), 'discussion'))
            yield '</li>'
        if environment.getattr(environment.getattr((undefined(name='pull') if l_0_pull is missing else l_0_pull), 'review'), 'closes'):
            pass
            yield '<li><span class="review-label">Closes</span>'
            for l_1_issue in environment.getattr(environment.getattr((undefined(name='pull') if l_0_pull is missing else l_0_pull), 'review'), 'closes'):
                _loop_vars = {}
                pass
                yield ' <a href="'
                yield escape(environment.getattr(l_1_issue, 'path'))
                yield '" rel="noopener noreferrer">issue '
                yield escape(environment.getattr(l_1_issue, 'label'))
                yield '</a>'
            l_1_issue = missing
            yield '</li>'
        yield '</ul>\n</section>\n'
    yield '<section class="stats" aria-labelledby="numbers">\n<h2 id="numbers">The numbers</h2>\n<p>'
    yield escape(context.call((undefined(name='count') if l_0_count is missing else l_0_count), environment.getattr((undefined(name='pull') if l_0_pull is missing else l_0_pull), 'changed_files'), 'file', _block_vars=_block_vars))
    yield ' changed, +'
    yield escape(environment.getattr((undefined(name='pull') if l_0_pull is missing else l_0_pull), 'additions'))
    yield ' −'
    yield escape(environment.getattr((undefined(name='pull') if l_0_pull is missing else l_0_pull), 'deletions'))
    yield ' lines.</p>\n'
    if (environment.getattr((undefined(name='pull') if l_0_pull is missing else l_0_pull), 'issues') and (not environment.getattr((undefined(name='pull') if l_0_pull is missing else l_0_pull), 'review'))):
        pass
        yield '<p>Linked issues:'
        for l_1_issue in environment.getattr((undefined(name='pull') if l_0_pull is missing else l_0_pull), 'issues'):
            _loop_vars = {}
            pass
            yield ' <a href="'
            yield escape(environment.getattr(l_1_issue, 'path'))
            yield '" rel="noopener noreferrer">'
            yield escape(environment.getattr(l_1_issue, 'label'))
            yield '</a>'
        l_1_issue = missing
        yield '</p>'
    if environment.getattr((undefined(name='pull') if l_0_pull is missing else l_0_pull), 'reverts'):
        pass
        yield '<p>Reverts '
        yield escape(environment.getattr((undefined(name='pull') if l_0_pull is missing else l_0_pull), 'reverts'))
        yield '.</p>'
    if environment.getattr((undefined(name='pull') if l_0_pull is missing else l_0_pull), 'relands'):
        pass
        yield '<p>Lands again '
        yield escape(environment.getattr((undefined(name='pull') if l_0_pull is missing else l_0_pull), 'relands'))
        yield '.</p>'
    yield '</section>\n'
    if environment.getattr((undefined(name='pull') if l_0_pull is missing else l_0_pull), 'folders'):
        pass
        yield '<section class="files" aria-labelledby="files">\n<h2 id="files">Files changed</h2>\n'
        yield escape(environment.getattr((undefined(name='pull') if l_0_pull is missing else l_0_pull), 'file_list'))
        yield '\n</section>\n'
    yield '<section class="cited" aria-labelledby="cited">\n<h2 id="cited">Cited by</h2>\n<ul class="cited-list">\n'
    for l_1_c in environment.getattr(environment.getattr((undefined(name='pull') if l_0_pull is missing else l_0_pull), 'page'), 'cited_by'):
        l_1_page = resolve('page')
        _loop_vars = {}
        pass
        yield '<li><a class="headline-link" href="'
        yield escape(environment.getattr((undefined(name='page') if l_1_page is missing else l_1_page), 'root'))
        yield escape(environment.getattr(l_1_c, 'path'))
        yield '">'
        yield escape(environment.getattr(l_1_c, 'headline'))
        yield '</a> <span class="meta">'
        yield escape(environment.getattr(l_1_c, 'project'))
        yield ', <time datetime="'
        yield escape(environment.getattr(l_1_c, 'date_iso'))
        yield '">'
        yield escape(environment.getattr(l_1_c, 'date_label'))
        yield '</time></span></li>\n'
    l_1_c = l_1_page = missing
    yield '</ul>\n</section>\n</article>\n'

blocks = {'main': block_main}
debug_info = '1=12&2=17&5=34&6=38&7=40&9=52&10=57&11=59&14=80&17=83&20=85&24=88&25=93&26=98&27=103&28=106&29=111&35=126&36=132&37=145&38=150&40=156&43=159&49=162&50=167'
# Made by `make templates` from templates/pull.html.
