# Copyright 2026 The pending-tempest-plugin Authors.
#
#    Licensed under the Apache License, Version 2.0 (the "License"); you may
#    not use this file except in compliance with the License. You may obtain
#    a copy of the License at
#
#         http://www.apache.org/licenses/LICENSE-2.0
#
#    Unless required by applicable law or agreed to in writing, software
#    distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
#    WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the
#    License for the specific language governing permissions and limitations
#    under the License.
"""The files a run leaves for the people who keep them.

``results.xml`` (JUnit, for CI systems), ``results.html`` (one page a
person reads: verdict, cloud, versions, claims, requirements, tests),
``report.txt`` and ``report.json``; and :func:`scrub`, which removes every
known secret value from every text file of the output folder.
"""

import html
import os
import re
from xml.etree import ElementTree

from pending_tempest_plugin.conformance import verdict as verdict_mod

_KIND = {'fail': 'failure', 'uxsuccess': 'failure', 'skip': 'skipped'}


def junit(records, name='pending-conformance'):
    """JUnit XML text of the run's test records."""
    counts = {'failure': 0, 'skipped': 0}
    suite = ElementTree.Element('testsuite', name=name)
    total = 0.0
    for rec in records:
        classname, _, test = rec.id.rpartition('.')
        if verdict_mod.FIXTURE_RE.match(rec.id):
            classname, test = rec.id.split(' ', 1)[1].strip('()'), rec.id
        case = ElementTree.SubElement(
            suite, 'testcase', classname=classname or name,
            name=test or rec.id, time='%.3f' % rec.seconds)
        total += rec.seconds
        kind = _KIND.get(rec.status)
        if kind:
            counts[kind] += 1
            child = ElementTree.SubElement(case, kind,
                                           message=rec.message or '')
            if kind == 'failure':
                child.text = '\n'.join([rec.message or ''] + list(
                    rec.request_ids))
    suite.set('tests', str(len(records)))
    suite.set('failures', str(counts['failure']))
    suite.set('errors', '0')
    suite.set('skipped', str(counts['skipped']))
    suite.set('time', '%.3f' % total)
    root = ElementTree.Element('testsuites')
    root.append(suite)
    return ElementTree.tostring(root, encoding='unicode',
                                xml_declaration=True)


_STYLE = '''
body { font-family: sans-serif; margin: 2em; color: #222; }
h1 { font-size: 1.4em; } table { border-collapse: collapse; margin: 1em 0; }
td, th { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: left;
         vertical-align: top; font-size: 0.9em; }
.verdict { font-size: 1.2em; font-weight: bold; padding: 0.5em; }
.PASS, .pass, .success, .certified, .verified { background: #d7f5d7; }
.FAIL, .fail, .failed { background: #f8d0d0; }
.skip, .not-run, .needs-admin, .needs-disruption, .incomplete {
    background: #fdf0c8; }
.filters label { margin-right: 0.8em; }
'''


def _table(rows, header, table_id=None):
    out = ['<table%s><tr>%s</tr>' % (
        ' id="%s"' % table_id if table_id else '', ''.join(
            '<th>%s</th>' % html.escape(h) for h in header))]
    for cls, cells in rows:
        out.append('<tr class="%s">%s</tr>' % (html.escape(cls), ''.join(
            '<td>%s</td>' % html.escape(str(c)) for c in cells)))
    out.append('</table>')
    return '\n'.join(out)


def _css_class(outcome):
    """An outcome as a class name: "not run" is ``not-run``."""
    return re.sub(r'[^a-z0-9]+', '-', str(outcome).lower()).strip('-')


def _filters(name, classes, tables):
    """Radio buttons that show only the rows of one outcome (CSS only).

    The buttons come before ``tables`` (HTML strings) in one block, so
    that ``#ID:checked ~ table`` selects them: the page keeps no script.
    """
    buttons = [('%s-all' % name, 'all', None)] + [
        ('%s-%s' % (name, c), c.replace('-', ' '), c) for c in classes]
    style = ''.join(
        '#%s:checked ~ table tr.row:not(.%s) { display: none; }\n'
        % (ident, cls) for ident, _, cls in buttons if cls)
    inputs = ''.join(
        '<input type="radio" name="%s" id="%s"%s>'
        '<label for="%s">%s</label> ' % (
            name, ident, ' checked' if cls is None else '', ident,
            html.escape(label))
        for ident, label, cls in buttons)
    return ('<style>%s</style><div class="filters">Show: %s\n%s</div>'
            % (style, inputs, '\n'.join(tables)))


def html_page(report, records):
    """One self-contained HTML page of the report (no script, no fetch).

    The requirements and the tests can be filtered by outcome (radio
    buttons and CSS); a requirement's detail holds its failure messages and
    the request ids of its failed tests.
    """
    header = report.get('header', {})
    verdict = report['verdict']
    state = 'PASS' if verdict['passed'] else 'FAIL'
    totals = report['totals']
    requirements = [(
        'row ' + _css_class(r['outcome']), (
            r['id'], r['level'], r['outcome'],
            '; '.join((r.get('messages') or []) + [r['detail']]
                      + list(r.get('request_ids') or [])).strip('; ')))
        for r in report['requirements']]
    tests = [('row ' + _css_class(rec.status), (
        rec.id, rec.status, '%.1f s' % rec.seconds, rec.message))
        for rec in records]
    parts = ['<!DOCTYPE html><html><head><meta charset="utf-8">',
             '<title>Conformance %s</title>' % state,
             '<style>%s</style></head><body>' % _STYLE,
             '<h1>Nova PENDING state, host_status and cell0 rebuild '
             'conformance</h1>',
             '<div class="verdict %s" id="verdict">%s</div>' % (
                 state, '<br>'.join(html.escape(line)
                                    for line in verdict['lines'])),
             '<h2>Scopes</h2>',
             _table([('row ' + _css_class(s['status']), (
                 s['name'], s['status'], s['title'],
                 '; '.join(s.get('reasons') or []))) for s in
                 report.get('scopes') or ()],
                 ('scope', 'status', 'what', 'why'), 'scopes'),
             '<h2>Totals</h2>',
             '<p id="totals">%s</p>' % html.escape(', '.join(
                 '%d %s' % (totals[k], k) for k in sorted(totals))),
             '<h2>Run</h2>',
             _table([('', (k, header[k])) for k in sorted(header)
                     if not isinstance(header[k], (dict, list))],
                    ('field', 'value')),
             '<h2>Claims</h2>',
             _table([('', (k, v)) for k, v in sorted(
                 (header.get('claims') or {}).items())], ('claim', 'value')),
             '<h2>Requirements</h2>',
             _filters('requirements', sorted(
                 {cls.split()[1] for cls, _ in requirements}), [_table(
                     requirements, ('id', 'level', 'outcome', 'detail'),
                     'requirements')]),
             '<h2>Tests</h2>',
             _filters('tests', sorted(
                 {cls.split()[1] for cls, _ in tests}), [_table(
                     tests, ('test', 'status', 'time', 'message'),
                     'tests')]),
             '</body></html>']
    return '\n'.join(parts)


# Shorter values match ordinary words (the embedded cloud's admin password
# is "admin"): searching free text for them would mangle every artifact.
# The structured files (tempest.conf) are redacted by option name instead.
SCRUB_MIN_LENGTH = 8


def scrub(folder, secrets):
    """Replace every secret value in every file below ``folder`` by ***.

    Values shorter than SCRUB_MIN_LENGTH are left to the redaction by
    option name.  :returns: the files that held one.
    """
    secrets = sorted({s for s in secrets if s and len(s) >= SCRUB_MIN_LENGTH},
                     key=len, reverse=True)
    touched = []
    if not secrets:
        return touched
    for root, _, files in os.walk(folder):
        for name in files:
            path = os.path.join(root, name)
            try:
                with open(path, 'rb') as f:
                    data = f.read()
            except OSError:
                continue
            new = data
            for secret in secrets:
                new = new.replace(secret.encode(), b'***')
            if new != data:
                with open(path, 'wb') as f:
                    f.write(new)
                touched.append(path)
    return touched
