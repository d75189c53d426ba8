from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_macros.html'

def root(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_entry_card = l_0_feed_pair = l_0_desk_rows = l_0_year_list = l_0_body = l_0_actions = l_0_pull = l_0_references = l_0_month_sections = missing
    try:
        t_1 = environment.tests['none']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No test named 'none' found.")
    pass
    yield '\n'
    def macro(l_1_entry, l_1_root, l_1_show_project, l_1_level, l_1_lead, l_1_sentence):
        t_2 = []
        if l_1_entry is missing:
            l_1_entry = undefined("parameter 'entry' was not provided", name='entry')
        if l_1_root is missing:
            l_1_root = undefined("parameter 'root' was not provided", name='root')
        if l_1_show_project is missing:
            l_1_show_project = True
        if l_1_level is missing:
            l_1_level = 2
        if l_1_lead is missing:
            l_1_lead = False
        if l_1_sentence is missing:
            l_1_sentence = False
        pass
        t_2.extend((
            '<article class="card',
            escape((' card-lead' if l_1_lead else cond_expr_undefined("the inline if-expression on line 5 in '_macros.html' evaluated to false and no else section was defined."))),
            '">\n<p class="kicker">',
        ))
        if l_1_show_project:
            pass
            t_2.extend((
                '<a href="',
                escape(l_1_root),
                escape(environment.getattr(l_1_entry, 'project_path')),
                '">',
                escape(environment.getattr(l_1_entry, 'project')),
                '</a> · ',
            ))
        t_2.extend((
            '<time datetime="',
            escape(environment.getattr(l_1_entry, 'date_iso')),
            '">',
            escape(environment.getattr(l_1_entry, 'date_label')),
            '</time></p>\n<h',
            escape(l_1_level),
            ' class="card-headline',
            escape((' card-sentence' if l_1_sentence else cond_expr_undefined("the inline if-expression on line 7 in '_macros.html' evaluated to false and no else section was defined."))),
            '"><a href="',
            escape(l_1_root),
            escape(environment.getattr(l_1_entry, 'path')),
            '">',
            escape(environment.getattr(l_1_entry, 'headline')),
            '</a></h',
            escape(l_1_level),
            '>\n',
        ))
        if environment.getattr(l_1_entry, 'dek'):
            pass
            t_2.extend((
                '<p class="card-dek">',
                escape(environment.getattr(l_1_entry, 'dek')),
                '</p>\n',
            ))
        t_2.append(
            '</article>\n',
        )
        return concat(t_2)
    context.exported_vars.add('entry_card')
    context.vars['entry_card'] = l_0_entry_card = Macro(environment, macro, 'entry_card', ('entry', 'root', 'show_project', 'level', 'lead', 'sentence'), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_feed, l_1_root):
        t_3 = []
        if l_1_feed is missing:
            l_1_feed = undefined("parameter 'feed' was not provided", name='feed')
        if l_1_root is missing:
            l_1_root = undefined("parameter 'root' was not provided", name='root')
        pass
        t_3.extend((
            '<span class="feed-pair"><a href="',
            escape(l_1_root),
            escape(environment.getattr(l_1_feed, 'path')),
            '">RSS</a> · <a href="',
            escape(l_1_root),
            escape(environment.getattr(l_1_feed, 'json_path')),
            '">JSON&nbsp;Feed</a></span>',
        ))
        return concat(t_3)
    context.exported_vars.add('feed_pair')
    context.vars['feed_pair'] = l_0_feed_pair = Macro(environment, macro, 'feed_pair', ('feed', 'root'), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_rows, l_1_root):
        t_4 = []
        if l_1_rows is missing:
            l_1_rows = undefined("parameter 'rows' was not provided", name='rows')
        if l_1_root is missing:
            l_1_root = undefined("parameter 'root' was not provided", name='root')
        pass
        t_4.append(
            '<ul class="desk-rows">\n',
        )
        for l_2_row in l_1_rows:
            _loop_vars = {}
            pass
            t_4.extend((
                '<li class="desk-row desk-',
                escape(environment.getattr(l_2_row, 'urgency')),
                ' repo-',
                escape(environment.getattr(l_2_row, 'repo_key')),
                '">\n<details>\n<summary><span class="desk-change">',
                escape(environment.getattr(l_2_row, 'change')),
                '</span>',
            ))
            if environment.getattr(l_2_row, 'number'):
                pass
                t_4.extend((
                    ' <span class="desk-number">',
                    escape(environment.getattr(l_2_row, 'number')),
                    '</span>',
                ))
            t_4.extend((
                '</summary>\n<div class="desk-detail">\n<p class="desk-text">',
                escape(environment.getattr(l_2_row, 'text')),
                '</p>\n<p class="meta"><span class="repo">',
                escape(environment.getattr(l_2_row, 'repo')),
                '</span> · ',
                escape(environment.getattr(l_2_row, 'project')),
                ', <time datetime="',
                escape(environment.getattr(l_2_row, 'date_iso')),
                '">',
                escape(environment.getattr(l_2_row, 'date_label')),
                '</time>: <a class="headline-link" href="',
                escape(l_1_root),
                escape(environment.getattr(environment.getattr(l_2_row, 'edition'), 'path')),
                '">',
                escape(environment.getattr(environment.getattr(l_2_row, 'edition'), 'label')),
                '</a>',
            ))
            for l_3_ref in environment.getattr(l_2_row, 'refs'):
                _loop_vars = {}
                pass
                t_4.extend((
                    ' <a class="cite" href="',
                    escape(l_1_root),
                    escape(environment.getattr(l_3_ref, 'path')),
                    '">',
                    escape(environment.getattr(l_3_ref, 'label')),
                    '</a>',
                ))
            l_3_ref = missing
            if environment.getattr(l_2_row, 'url'):
                pass
                t_4.extend((
                    ' · <a href="',
                    escape(environment.getattr(l_2_row, 'url')),
                    '" rel="noopener noreferrer">On GitHub</a>',
                ))
            t_4.append(
                '</p>\n</div>\n</details>\n</li>\n',
            )
        l_2_row = missing
        t_4.append(
            '</ul>\n',
        )
        return concat(t_4)
    context.exported_vars.add('desk_rows')
    context.vars['desk_rows'] = l_0_desk_rows = Macro(environment, macro, 'desk_rows', ('rows', 'root'), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_years, l_1_root):
        t_5 = []
        if l_1_years is missing:
            l_1_years = undefined("parameter 'years' was not provided", name='years')
        if l_1_root is missing:
            l_1_root = undefined("parameter 'root' was not provided", name='root')
        pass
        t_5.append(
            '<ul class="years">\n',
        )
        for l_2_y in l_1_years:
            l_2_count = resolve('count')
            _loop_vars = {}
            pass
            t_5.extend((
                '<li><a class="year" href="',
                escape(l_1_root),
                escape(environment.getattr(l_2_y, 'path')),
                '">',
                escape(environment.getattr(l_2_y, 'year')),
                '</a> <span class="count">',
                escape(context.call((undefined(name='count') if l_2_count is missing else l_2_count), environment.getattr(l_2_y, 'count'), 'edition', _loop_vars=_loop_vars)),
                '</span>\n<ul class="months">\n',
            ))
            for l_3_mo in environment.getattr(l_2_y, 'months'):
                _loop_vars = {}
                pass
                t_5.extend((
                    '<li><a href="',
                    escape(l_1_root),
                    escape(environment.getattr(l_3_mo, 'path')),
                    '">',
                    escape(environment.getattr(l_3_mo, 'name')),
                    '</a> <span class="count">',
                    escape(environment.getattr(l_3_mo, 'count')),
                    '</span></li>\n',
                ))
            l_3_mo = missing
            t_5.append(
                '</ul>\n</li>\n',
            )
        l_2_y = l_2_count = missing
        t_5.append(
            '</ul>\n',
        )
        return concat(t_5)
    context.exported_vars.add('year_list')
    context.vars['year_list'] = l_0_year_list = Macro(environment, macro, 'year_list', ('years', 'root'), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_edition):
        t_6 = []
        if l_1_edition is missing:
            l_1_edition = undefined("parameter 'edition' was not provided", name='edition')
        pass
        t_6.extend((
            '<div class="story',
            escape((' story-dropcap' if environment.getattr(l_1_edition, 'drop_cap') else cond_expr_undefined("the inline if-expression on line 49 in '_macros.html' evaluated to false and no else section was defined."))),
            '">\n',
            escape(environment.getattr(l_1_edition, 'body')),
            '\n</div>\n',
        ))
        return concat(t_6)
    context.exported_vars.add('body')
    context.vars['body'] = l_0_body = Macro(environment, macro, 'body', ('edition',), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_edition):
        t_7 = []
        if l_1_edition is missing:
            l_1_edition = undefined("parameter 'edition' was not provided", name='edition')
        pass
        if environment.getattr(l_1_edition, 'actions'):
            pass
            t_7.append(
                '<section class="actions" aria-labelledby="actions">\n<h2 id="actions">Action items</h2>\n<ul class="action-list">\n',
            )
            for l_2_item in environment.getattr(l_1_edition, 'actions'):
                _loop_vars = {}
                pass
                t_7.extend((
                    '<li class="action action-',
                    escape(environment.getattr(l_2_item, 'urgency')),
                    '">\n<span class="badge badge-',
                    escape(environment.getattr(l_2_item, 'urgency')),
                    '">',
                    escape(environment.getattr(l_2_item, 'label')),
                    '</span>\n<span class="action-text">',
                    escape(environment.getattr(l_2_item, 'text')),
                    '</span>\n<span class="meta"><span class="repo">',
                    escape(environment.getattr(l_2_item, 'repo')),
                    '</span>',
                ))
                for l_3_n in environment.getattr(l_2_item, 'refs'):
                    _loop_vars = {}
                    pass
                    t_7.extend((
                        ' <a class="cite" href="',
                        escape(environment.getattr(l_1_edition, 'cite_base')),
                        '#ref-',
                        escape(l_3_n),
                        '">[',
                        escape(l_3_n),
                        ']</a>',
                    ))
                l_3_n = missing
                t_7.append(
                    '</span>\n</li>\n',
                )
            l_2_item = missing
            t_7.append(
                '</ul>\n</section>\n',
            )
        return concat(t_7)
    context.exported_vars.add('actions')
    context.vars['actions'] = l_0_actions = Macro(environment, macro, 'actions', ('edition',), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_item):
        t_8 = []
        if l_1_item is missing:
            l_1_item = undefined("parameter 'item' was not provided", name='item')
        pass
        if environment.getattr(l_1_item, 'url'):
            pass
            t_8.extend((
                '<a href="',
                escape(environment.getattr(l_1_item, 'url')),
                '" rel="noopener noreferrer">',
                escape(environment.getattr(l_1_item, 'title')),
                '</a>',
            ))
        else:
            pass
            t_8.append(
                escape(environment.getattr(l_1_item, 'title')),
            )
        t_8.extend((
            ' <span class="meta"><span class="repo">',
            escape(environment.getattr(l_1_item, 'repo')),
            '</span>',
        ))
        if (not t_1(environment.getattr(l_1_item, 'number'))):
            pass
            t_8.extend((
                ' #',
                escape(environment.getattr(l_1_item, 'number')),
            ))
        t_8.append(
            '</span>',
        )
        return concat(t_8)
    context.exported_vars.add('pull')
    context.vars['pull'] = l_0_pull = Macro(environment, macro, 'pull', ('item',), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_edition, l_1_root):
        t_9 = []
        if l_1_edition is missing:
            l_1_edition = undefined("parameter 'edition' was not provided", name='edition')
        if l_1_root is missing:
            l_1_root = ''
        pass
        if environment.getattr(l_1_edition, 'references'):
            pass
            t_9.append(
                '<section class="references" aria-labelledby="references">\n<h2 id="references">References</h2>\n<ol class="reference-list">\n',
            )
            for l_2_ref in environment.getattr(l_1_edition, 'references'):
                _loop_vars = {}
                pass
                t_9.extend((
                    '<li id="ref-',
                    escape(environment.getattr(l_2_ref, 'n')),
                    '" value="',
                    escape(environment.getattr(l_2_ref, 'n')),
                    '">',
                    escape(context.call((undefined(name='pull') if l_0_pull is missing else l_0_pull), l_2_ref, _loop_vars=_loop_vars)),
                ))
                if environment.getattr(l_2_ref, 'page'):
                    pass
                    t_9.extend((
                        ' · <a class="details" href="',
                        escape(l_1_root),
                        escape(environment.getattr(l_2_ref, 'page')),
                        '">what it changed</a>',
                    ))
                t_9.append(
                    '</li>\n',
                )
            l_2_ref = missing
            t_9.append(
                '</ol>\n</section>\n',
            )
        return concat(t_9)
    context.exported_vars.add('references')
    context.vars['references'] = l_0_references = Macro(environment, macro, 'references', ('edition', 'root'), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_months, l_1_root, l_1_show_project, l_1_level):
        t_10 = []
        if l_1_months is missing:
            l_1_months = undefined("parameter 'months' was not provided", name='months')
        if l_1_root is missing:
            l_1_root = undefined("parameter 'root' was not provided", name='root')
        if l_1_show_project is missing:
            l_1_show_project = True
        if l_1_level is missing:
            l_1_level = 2
        pass
        for l_2_month in l_1_months:
            _loop_vars = {}
            pass
            t_10.extend((
                '<section class="month" aria-labelledby="',
                escape(environment.getattr(l_2_month, 'anchor')),
                '">\n<h',
                escape(l_1_level),
                ' id="',
                escape(environment.getattr(l_2_month, 'anchor')),
                '">',
                escape(environment.getattr(l_2_month, 'label')),
                '</h',
                escape(l_1_level),
                '>\n<ul class="entry-lines">\n',
            ))
            for l_3_entry in environment.getattr(l_2_month, 'entries'):
                _loop_vars = {}
                pass
                t_10.extend((
                    '<li><time datetime="',
                    escape(environment.getattr(l_3_entry, 'date_iso')),
                    '">',
                    escape(environment.getattr(l_3_entry, 'date_label')),
                    '</time>',
                ))
                if l_1_show_project:
                    pass
                    t_10.extend((
                        ' <span class="line-project">',
                        escape(environment.getattr(l_3_entry, 'project')),
                        '</span>',
                    ))
                t_10.extend((
                    ' <a href="',
                    escape(l_1_root),
                    escape(environment.getattr(l_3_entry, 'path')),
                    '">',
                    escape(environment.getattr(l_3_entry, 'headline')),
                    '</a></li>\n',
                ))
            l_3_entry = missing
            t_10.append(
                '</ul>\n</section>\n',
            )
        l_2_month = missing
        return concat(t_10)
    context.exported_vars.add('month_sections')
    context.vars['month_sections'] = l_0_month_sections = Macro(environment, macro, 'month_sections', ('months', 'root', 'show_project', 'level'), False, False, False, context.eval_ctx.autoescape)

blocks = {}
debug_info = '4=19&5=36&6=39&7=55&8=67&9=71&15=81&18=101&20=111&21=116&23=120&25=132&26=134&34=178&36=188&37=194&39=202&40=207&48=227&49=234&50=236&54=243&55=248&59=253&60=258&61=260&62=264&63=266&72=293&74=330&75=337&79=342&80=347&87=372&88=383&89=388&90=390&92=399&93=404'
# Made by `make templates` from templates/_macros.html.
