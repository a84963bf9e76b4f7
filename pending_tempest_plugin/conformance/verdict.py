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
"""The verdict of a conformance run: per requirement, then as one exit code.

Input: the test records of a run (``records_from_subunit``), the claims the
run was given (``[nova_conformance]``), whether it had admin credentials,
its mode and the resources it left behind.  Output: one row per requirement
of the catalogue and a verdict whose first line says why it passed or not.

The verdict fails (exit status 1) when

* a requirement failed, or a test outside the catalogue failed;
* a class-level fixture failed (``setUpClass``, ``tearDownClass``...): class
  errors carry no idempotent id, so every requirement of that class fails;
  likewise a class that skips in ``skip_checks`` (what it needs is not
  configured) leaves one ``setUpClass`` skip, which skips each of its tests
  with that reason;
* nothing was verified: an empty stream, or no requirement passed;
* in ``certify`` mode, also when an applicable MUST requirement was skipped
  or not run (including one that needs admin or disruption the run did not
  have), or when the run left a resource behind.

A requirement that does not apply to the claims (``applies`` in the
catalogue: the PENDING requirements on a cloud that claims no PENDING, the
admin_or_owner rows under the admin_only profile) reads ``not applicable``
and never counts for or against the verdict.
"""

import collections
import re

from pending_tempest_plugin.conformance import catalogue

CERTIFY, EXPLORE = 'certify', 'explore'
MODES = (CERTIFY, EXPLORE)

# Row outcomes beyond those of catalogue.requirement_outcomes.
NEEDS_ADMIN = 'needs admin'
_Narrowed = collections.namedtuple('Catalogue', ['requirements'])
NEEDS_DISRUPTION = 'needs disruption'
NOT_APPLICABLE = 'not applicable'
# Rows that count neither for nor against a verdict.
_NOT_COUNTED = (NOT_APPLICABLE, 'planned', 'unobservable')

MUST, SHOULD, MAY = 'MUST', 'SHOULD', 'MAY'
_LEVELS = ((MUST, re.compile(r'\b(MUST|SHALL|REQUIRED)\b')),
           (SHOULD, re.compile(r'\b(SHOULD|RECOMMENDED)\b')),
           (MAY, re.compile(r'\b(MAY|OPTIONAL)\b')))

UUID_RE = re.compile(r'\bid-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-'
                     r'[0-9a-f]{4}-[0-9a-f]{12})\b')
# unittest's and testtools' names for a failed class or module fixture.
FIXTURE_RE = re.compile(r'^(?P<fixture>setUpClass|tearDownClass|setUpModule|'
                        r'tearDownModule) \((?P<owner>[\w.]+)\)$')
REQUEST_ID_RE = re.compile(r'\breq-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-'
                           r'[0-9a-f]{4}-[0-9a-f]{12}\b')

# subunit status -> test result
_STATUS = {'success': catalogue.PASS, 'fail': catalogue.FAIL,
           'uxsuccess': catalogue.FAIL, 'skip': catalogue.SKIP,
           'xfail': catalogue.XFAIL}
_WORST_FIRST = (catalogue.FAIL, catalogue.XFAIL, catalogue.SKIP,
                catalogue.PASS)

TestRecord = collections.namedtuple(
    'TestRecord', ['id', 'status', 'message', 'request_ids', 'seconds'])
TestRecord.__new__.__defaults__ = (0.0,)


def level(text):
    """MUST, SHOULD or MAY: the strongest RFC 2119 keyword of ``text``."""
    for name, pattern in _LEVELS:
        if pattern.search(text or ''):
            return name
    return MAY


def _message(details):
    """The last line of a test's traceback, or its skip reason."""
    for name in ('traceback', 'reason'):
        text = details.get(name, '').strip()
        if text:
            return text.splitlines()[-1].strip()
    return ''


def each_test(stream, on_test):
    """Call ``on_test(test)`` for each test of a binary subunit v2 stream.

    ``test``: testtools.StreamToDict's dict (id, status, tags, details,
    timestamps), in the stream's order.
    """
    import subunit
    import testtools

    case = subunit.ByteStreamToStreamResult(stream, non_subunit_name='stdout')
    result = testtools.StreamToDict(on_test)
    result.startTestRun()
    try:
        case.run(result)
    finally:
        result.stopTestRun()


def records_from_subunit(stream):
    """TestRecords of a binary subunit v2 stream, in the stream's order."""
    records = []

    def on_test(test):
        details = {}
        for name, content in (test.get('details') or {}).items():
            try:
                details[name] = content.as_text()
            except Exception:   # a binary attachment: nothing to read
                continue
        ids = []
        for text in details.values():
            for rid in REQUEST_ID_RE.findall(text):
                if rid not in ids:
                    ids.append(rid)
        stamps = [t for t in test.get('timestamps') or () if t]
        seconds = ((stamps[-1] - stamps[0]).total_seconds()
                   if len(stamps) == 2 else 0.0)
        records.append(TestRecord(test['id'], test['status'],
                                  _message(details), tuple(ids), seconds))

    each_test(stream, on_test)
    return records


def _by_uuid(records):
    """idempotent_id -> (worst result, its record)."""
    out = {}
    for rec in records:
        match = UUID_RE.search(rec.id)
        result = _STATUS.get(rec.status)
        if not match or result is None:
            continue
        uuid = match.group(1)
        previous = out.get(uuid)
        if previous is None or (_WORST_FIRST.index(result)
                                < _WORST_FIRST.index(previous[0])):
            out[uuid] = (result, rec)
    return out


def _class_errors(records):
    """[(fixture, owner, record)] of every failed class/module fixture."""
    errors = []
    for rec in records:
        match = FIXTURE_RE.match(rec.id)
        if match and _STATUS.get(rec.status) == catalogue.FAIL:
            errors.append((match.group('fixture'), match.group('owner'),
                           rec))
    return errors


def _class_skips(records):
    """[(owner, record)] of every class/module fixture that skipped.

    A class whose ``skip_checks`` finds what it needs unconfigured skips
    as a whole: subunit records one ``setUpClass (module.Class)`` skip
    whose reason names the option, and no record per test.
    """
    skips = []
    for rec in records:
        match = FIXTURE_RE.match(rec.id)
        if match and _STATUS.get(rec.status) == catalogue.SKIP:
            skips.append((match.group('owner'), rec))
    return skips


def _tests_under(owner, tests_of_owner):
    """idempotent ids of the tests of class (or module) ``owner``."""
    found = set()
    for name, uuids in tests_of_owner.items():
        if name == owner or name.startswith(owner + '.'):
            found.update(uuids)
    return sorted(found)


def _owner_of(test_name):
    """module.Class of a declared test's module.Class.method."""
    return test_name.rsplit('.', 1)[0]


def evaluate(cat, declared, records, claims, mode=EXPLORE, admin=True,
             leaks=()):
    """Rows, totals and verdict of a run.

    :param declared: catalogue.scan_tests()[0], to map classes to tests.
    :param claims: [nova_conformance] option -> value the run was given.
    :param admin: whether the run had admin credentials.
    :param leaks: descriptions of resources the run left behind.
    :returns: dict with ``rows``, ``totals``, ``verdict`` (``passed``,
              ``lines``), ``exit_code``.
    """
    if mode not in MODES:
        raise ValueError('mode must be one of %s' % ', '.join(MODES))
    disruptive = bool(claims.get('disruptive_tests'))
    results = _by_uuid(records)
    tests_of_owner = collections.defaultdict(set)
    for test in declared:
        tests_of_owner[_owner_of(test.name)].add(test.idempotent_id)
    for owner, rec in _class_skips(records):
        for uuid in _tests_under(owner, tests_of_owner):
            results.setdefault(uuid, (catalogue.SKIP, rec))
    outcomes = catalogue.requirement_outcomes(
        cat, {uuid: r for uuid, (r, _) in results.items()})
    class_errors = _class_errors(records)
    broken = {}   # idempotent_id -> sentence naming the failed fixture
    for fixture, owner, rec in class_errors:
        for uuid in tests_of_owner.get(owner, ()):
            broken.setdefault(uuid, '%s of %s failed: %s' % (
                fixture, owner.rsplit('.', 1)[-1], rec.message))

    rows = []
    for req in cat.requirements:
        outcome, detail = outcomes[req.id]
        if not admin and req.member_tests:
            # Without admin, a requirement that needs none is decided by
            # the tests the catalogue names as runnable by a member.
            req = req._replace(tests=req.member_tests)
            outcome, detail = catalogue.requirement_outcomes(
                _Narrowed([req]), {u: r for u, (r, _) in results.items()}
            )[req.id]
            detail = '; '.join(
                d for d in ('decided without admin by its member test(s)',
                            detail) if d)
        messages, request_ids = [], []
        why_not = catalogue.applicable(req, claims)
        if req.status != 'verified':
            if not detail:
                detail = ' '.join((req.reason or '').split())
        elif why_not:
            outcome, detail = NOT_APPLICABLE, why_not
        else:
            fixture_failures = [broken[u] for u in req.tests if u in broken]
            if fixture_failures:
                outcome = catalogue.FAIL
                messages.extend(fixture_failures)
            for uuid in req.tests:
                result, rec = results.get(uuid, (None, None))
                if result == catalogue.FAIL:
                    messages.append(rec.message)
                    request_ids.extend(
                        r for r in rec.request_ids if r not in request_ids)
            if outcome in (catalogue.SKIP, catalogue.NOT_RUN):
                if req.admin and not admin:
                    outcome = NEEDS_ADMIN
                elif req.disruptive and not disruptive:
                    outcome = NEEDS_DISRUPTION
            if outcome == catalogue.SKIP:
                skips = [results[u][1].message for u in req.tests
                         if u in results
                         and results[u][0] == catalogue.SKIP]
                if skips and not detail:
                    detail = skips[0]
        row = {'id': req.id, 'level': level(req.text), 'admin': req.admin,
               'disruptive': req.disruptive, 'outcome': outcome,
               'detail': detail, 'tests': list(req.tests),
               'profile': claims.get('host_status_policy_profile'),
               'profiles': catalogue.claimed_profiles(claims)}
        if outcome == catalogue.FAIL:
            row['messages'] = [m for m in messages if m]
            row['request_ids'] = request_ids
        rows.append(row)
    totals = dict(collections.Counter(row['outcome'] for row in rows))
    verdict = _verdict(rows, records, results, class_errors, broken,
                       declared, mode, admin, disruptive, leaks)
    return {'rows': rows, 'totals': totals, 'verdict': verdict,
            'exit_code': 0 if verdict['passed'] else 1}


def _ids(rows):
    return ', '.join(row['id'] for row in rows)


def _verdict(rows, records, results, class_errors, broken, declared, mode,
             admin, disruptive, leaks):
    reasons, notes = [], []
    failed = [r for r in rows if r['outcome'] == catalogue.FAIL]
    if failed:
        reasons.append('%d requirement(s) failed: %s'
                       % (len(failed), _ids(failed)))
    known = {t.idempotent_id for t in declared}
    stray = []
    for rec in records:
        if (_STATUS.get(rec.status) != catalogue.FAIL
                or FIXTURE_RE.match(rec.id)):
            continue
        match = UUID_RE.search(rec.id)
        if not match or match.group(1) not in known:
            stray.append(rec.id)
    if stray:
        reasons.append('%d test(s) outside the catalogue failed: %s'
                       % (len(stray), ', '.join(stray[:5])))
    orphan_fixtures = [
        '%s (%s)' % (fixture, owner) for fixture, owner, rec in class_errors
        if not any(u in broken for u in _uuids_of(owner, declared))]
    if orphan_fixtures:
        reasons.append('class-level error(s) with no requirement behind '
                       'them: %s' % ', '.join(orphan_fixtures))
    verified = [r for r in rows if r['outcome'] in (
        catalogue.PASS, catalogue.KNOWN_DIVERGENCE)]
    if not records:
        reasons.append('nothing verified: the run recorded no test at all')
    elif not verified:
        skipped = sum(1 for r in results.values() if r[0] == catalogue.SKIP)
        reasons.append('nothing verified: no requirement passed (%d '
                       'test(s) skipped)' % skipped)
    applicable = [r for r in rows if r['outcome'] not in _NOT_COUNTED]
    cannot = []
    if mode == CERTIFY:
        musts = [r for r in applicable if r['level'] == MUST]
        if not admin and any(r['admin'] for r in musts):
            cannot.append('this run cannot certify: it had no admin '
                          'credentials, and %d applicable MUST '
                          'requirement(s) need admin'
                          % sum(1 for r in musts if r['admin']))
        if not disruptive and any(r['disruptive'] for r in musts):
            cannot.append('this run cannot certify: disruptive tests were '
                          'not enabled, and %d applicable MUST '
                          'requirement(s) need them'
                          % sum(1 for r in musts if r['disruptive']))
        unverified = [r for r in musts if r['outcome'] in (
            catalogue.SKIP, catalogue.NOT_RUN, NEEDS_ADMIN,
            NEEDS_DISRUPTION)]
        if unverified:
            reasons.append('%d applicable MUST requirement(s) not verified: '
                           '%s' % (len(unverified), _ids(unverified)))
        if leaks:
            reasons.append('the run left %d resource(s) behind: %s'
                           % (len(leaks), '; '.join(leaks[:5])))
    elif leaks:
        notes.append('the run left %d resource(s) behind: %s'
                     % (len(leaks), '; '.join(leaks[:5])))
    passed = not reasons
    head = 'VERDICT: %s (%s): %d of %d applicable requirement(s) verified' % (
        'PASS' if passed else 'FAIL', mode, len(verified), len(applicable))
    lines = cannot + [head] + ['  - ' + r for r in reasons] + [
        '  - ' + n for n in notes]
    return {'passed': passed, 'mode': mode, 'lines': lines,
            'reasons': reasons, 'notes': cannot + notes}


def _uuids_of(owner, declared):
    return [t.idempotent_id for t in declared
            if _owner_of(t.name) == owner]


# Which outcome of a requirement decides it when legs disagree: the first.
_DECIDES = (catalogue.FAIL, catalogue.PASS, catalogue.KNOWN_DIVERGENCE,
            NEEDS_ADMIN, NEEDS_DISRUPTION, catalogue.SKIP, catalogue.NOT_RUN,
            NOT_APPLICABLE, 'planned', 'unobservable')


def merge(reports, mode=None):
    """One report over several legs (runs) of one cloud.

    Each row is the one of the leg that decided it (a failure anywhere
    wins, then a pass...) and names that leg and its claims; the merged
    verdict fails when a row fails, when a leg's own verdict failed, or
    when nothing was verified.  With ``mode`` certify it also fails when
    an applicable MUST of the merged rows is not verified or a leg left
    resources behind (legs that each run part of the suite explore; the
    merged rows certify).  ValueError for reports of different clouds.
    """
    clouds = {r['header'].get('cloud_id') for r in reports}
    if len(clouds) != 1:
        raise ValueError('the reports are of different clouds: %s'
                         % ', '.join(sorted(str(c) for c in clouds)))
    rows = {}
    order = []
    for rep in reports:
        leg = rep['header'].get('leg')
        for row in rep['requirements']:
            row = dict(row, leg=leg, claims=rep['header'].get('claims'))
            best = rows.get(row['id'])
            if best is None:
                order.append(row['id'])
            if best is None or (_DECIDES.index(row['outcome'])
                                < _DECIDES.index(best['outcome'])):
                rows[row['id']] = row
    merged = [rows[i] for i in order]
    totals = dict(collections.Counter(row['outcome'] for row in merged))
    reasons = []
    failed = [r for r in merged if r['outcome'] == catalogue.FAIL]
    if failed:
        reasons.append('%d requirement(s) failed: %s'
                       % (len(failed), _ids(failed)))
    for rep in reports:
        if not rep['verdict']['passed']:
            reasons.append('leg %s failed: %s' % (
                rep['header'].get('leg'),
                '; '.join(rep['verdict']['reasons'])))
    applicable = [r for r in merged if r['outcome'] not in _NOT_COUNTED]
    verified = [r for r in applicable if r['outcome'] in (
        catalogue.PASS, catalogue.KNOWN_DIVERGENCE)]
    if not verified:
        reasons.append('nothing verified')
    if mode == CERTIFY:
        unverified = [r for r in applicable if r['level'] == MUST
                      and r['outcome'] in (catalogue.SKIP, catalogue.NOT_RUN,
                                           NEEDS_ADMIN, NEEDS_DISRUPTION)]
        if unverified:
            reasons.append('%d applicable MUST requirement(s) not verified '
                           'by any leg: %s' % (len(unverified),
                                               _ids(unverified)))
        for rep in reports:
            leaks = rep['header'].get('leaks') or []
            if leaks:
                reasons.append('leg %s left %d resource(s) behind: %s' % (
                    rep['header'].get('leg'), len(leaks),
                    '; '.join(leaks[:5])))
    passed = not reasons
    lines = ['VERDICT: %s (merged%s, %d legs): %d of %d applicable '
             'requirement(s) verified'
             % ('PASS' if passed else 'FAIL',
                ', certify' if mode == CERTIFY else '', len(reports),
                len(verified), len(applicable))]
    lines += ['  - ' + r for r in reasons]
    header = dict(reports[0]['header'])
    header['legs'] = [{'leg': r['header'].get('leg'),
                       'claims': r['header'].get('claims'),
                       'mode': r['header'].get('mode'),
                       'passed': r['verdict']['passed']} for r in reports]
    for key in ('leg', 'claims', 'regex', 'started', 'ended', 'leaks'):
        header.pop(key, None)
    return {'header': header, 'requirements': merged, 'totals': totals,
            'verdict': {'passed': passed, 'lines': lines,
                        'reasons': reasons, 'mode': 'merged'},
            'exit_code': 0 if passed else 1}
