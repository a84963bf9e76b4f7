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
"""The conformance report: one line per requirement of the catalogue.

Reads the subunit v2 stream of a Tempest run (``stestr last --subunit`` in
the Tempest workspace) and prints, per requirement, its outcome in that run
(pass, fail, skip, not run, known divergence, planned, unobservable) with
the tests behind it and, for a flagged requirement, its flag::

    stestr last --subunit | pending-conformance-report
    pending-conformance-report --subunit run.subunit --json report.json

Exit status: 1 if any requirement failed, else 0.  A known divergence (a
flagged requirement whose test saw exactly the documented divergence) is
not a failure, and is never printed as a pass.
"""

import argparse
import collections
import json
import re
import sys

from pending_tempest_plugin.conformance import catalogue

UUID_RE = re.compile(r'\bid-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-'
                     r'[0-9a-f]{4}-[0-9a-f]{12})\b')

# subunit test status -> catalogue result
_STATUS = {'success': catalogue.PASS, 'fail': catalogue.FAIL,
           'uxsuccess': catalogue.FAIL, 'skip': catalogue.SKIP,
           'xfail': catalogue.XFAIL}
# When one idempotent_id ran more than once, the worst result stands.
_ORDER = (catalogue.FAIL, catalogue.XFAIL, catalogue.SKIP, catalogue.PASS)


def results_from_subunit(stream):
    """idempotent_id -> result, from a binary subunit v2 stream."""
    import subunit
    import testtools

    statuses = []

    def on_test(test):
        statuses.append((test['id'], test['status']))

    case = subunit.ByteStreamToStreamResult(stream, non_subunit_name='stdout')
    result = testtools.StreamToDict(on_test)
    result.startTestRun()
    try:
        case.run(result)
    finally:
        result.stopTestRun()
    return results_from_statuses(statuses)


def results_from_statuses(statuses):
    """idempotent_id -> result, from (test id, subunit status) pairs."""
    results = {}
    for test_id, status in statuses:
        match = UUID_RE.search(test_id)
        result = _STATUS.get(status)
        if not match or result is None:
            continue
        uuid = match.group(1)
        previous = results.get(uuid)
        if previous is None or _ORDER.index(result) < _ORDER.index(previous):
            results[uuid] = result
    return results


def build(cat, results):
    """Rows (id, outcome, detail, tests) in catalogue order, and totals."""
    outcomes = catalogue.requirement_outcomes(cat, results)
    rows = []
    for req in cat.requirements:
        outcome, detail = outcomes[req.id]
        if not detail and req.status != 'verified':
            detail = ' '.join((req.reason or '').split())
        rows.append({'id': req.id, 'outcome': outcome, 'detail': detail,
                     'tests': list(req.tests)})
    totals = collections.Counter(row['outcome'] for row in rows)
    return rows, dict(totals)


def render(rows, totals):
    lines = ['%-8s %-16s %s' % ('ID', 'OUTCOME', 'DETAIL')]
    for row in rows:
        lines.append('%-8s %-16s %s' % (row['id'], row['outcome'],
                                        row['detail']))
    lines.append('')
    lines.append('requirements: ' + ', '.join(
        '%d %s' % (totals[k], k) for k in sorted(totals)))
    return '\n'.join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(
        description='Per-requirement conformance report of a Tempest run.')
    parser.add_argument('--subunit', default='-',
                        help='subunit v2 file of the run (default: stdin)')
    parser.add_argument('--json', help='also write the report as JSON here')
    args = parser.parse_args(argv)
    if args.subunit == '-':
        results = results_from_subunit(sys.stdin.buffer)
    else:
        with open(args.subunit, 'rb') as f:
            results = results_from_subunit(f)
    rows, totals = build(catalogue.load(), results)
    print(render(rows, totals))
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'requirements': rows, 'totals': totals}, f, indent=2)
    return 1 if totals.get(catalogue.FAIL) else 0


if __name__ == '__main__':
    sys.exit(main())
