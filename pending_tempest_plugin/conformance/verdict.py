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
import json
import re

from pending_tempest_plugin.conformance import catalogue
from pending_tempest_plugin.conformance import suite

CERTIFY, EXPLORE = 'certify', 'explore'
# How a verdict of a build no release names begins (suite.is_development).
DEVELOPMENT = 'development build, not certifiable'
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


def attempt_subunit(number):
    """The stream of attempt ``number`` (from 1), in the run's folder."""
    return ('results.subunit' if number == 1 else
            'attempt-%d/results.subunit' % number)


def _record_owner(rec):
    """The class (or module) a record belongs to: a test's or a fixture's."""
    match = FIXTURE_RE.match(rec.id)
    if match:
        return match.group('owner')
    return _owner_of(rec.id.split('[', 1)[0])


def _test_key(rec):
    """What names a test across attempts: its idempotent id, else its id."""
    match = UUID_RE.search(rec.id)
    return match.group(1) if match else rec.id.split('[', 1)[0]


_CLEARS = ('success', 'xfail')


def combine_attempts(attempts):
    """One run's records from its attempts (a run, then its reruns).

    A later attempt's record of a test replaces the earlier ones, except
    that a failure stands until a later attempt passes the test (a rerun
    that skips it clears nothing); a fixture's failure (setUpClass,
    setUpModule) goes once a later attempt passed a test under it.
    :returns: (records, {idempotent id: the attempt, from 1, whose record
    of it stands}).
    """
    combined = []
    for number, records in enumerate(attempts, 1):
        records = list(records)
        later = {}
        for rec in records:
            later.setdefault(_test_key(rec), []).append(rec.status)
        passed_owners = [_record_owner(r) for r in records
                         if r.status in _CLEARS
                         and not FIXTURE_RE.match(r.id)]

        def replaced(entry):
            rec = entry[0]
            if FIXTURE_RE.match(rec.id):
                owner = _record_owner(rec)
                return any(o == owner or o.startswith(owner + '.')
                           for o in passed_owners)
            statuses = later.get(_test_key(rec))
            if statuses is None:
                return False
            return (_STATUS.get(rec.status) != catalogue.FAIL
                    or any(s in _CLEARS for s in statuses))

        kept = [e for e in combined if not replaced(e)]
        kept_keys = {_test_key(e[0]) for e in kept
                     if not FIXTURE_RE.match(e[0].id)}
        combined = kept + [(r, number) for r in records
                           if FIXTURE_RE.match(r.id)
                           or _test_key(r) not in kept_keys]
    origin = {}
    for rec, number in combined:
        match = UUID_RE.search(rec.id)
        if match:
            origin[match.group(1)] = number
    return [rec for rec, _ in combined], origin


def rerun_selection(report, records):
    """The regex of the tests a rerun runs again, and how many.

    The tests of the rows that failed or were not run, every failed test
    (outside the catalogue too) and the classes whose fixture failed.
    """
    uuids, owners = set(), set()
    for row in report.get('requirements') or ():
        if row.get('outcome') in (catalogue.FAIL, catalogue.NOT_RUN):
            uuids.update(row.get('tests') or ())
    names = set()
    for rec in records:
        if _STATUS.get(rec.status) != catalogue.FAIL:
            continue
        match = UUID_RE.search(rec.id)
        if match:
            uuids.add(match.group(1))
        elif FIXTURE_RE.match(rec.id):
            owners.add(_record_owner(rec))
        else:   # a failed test without an idempotent id: by its name
            names.add(rec.id.split('[', 1)[0])
    parts = ['id-' + u for u in sorted(uuids)] + [
        '^' + re.escape(o) + r'\.' for o in sorted(owners)] + [
        '^' + re.escape(n) + r'($|\[)' for n in sorted(names)]
    return '|'.join(parts), len(uuids) + len(owners) + len(names)


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
    scopes = scope_results(cat, rows, [claims], mode, verdict['general'])
    verdict['lines'].insert(0, scope_line(scopes, mode))
    return {'rows': rows, 'totals': totals, 'verdict': verdict,
            'scopes': scopes, 'exit_code': 0 if verdict['passed'] else 1}


# A scope's status: certified (certify mode) or verified (explore), failed,
# incomplete (explore: an applicable MUST not verified, nothing failed),
# not claimed.
CERTIFIED, VERIFIED, FAILED, INCOMPLETE, NOT_CLAIMED = (
    'certified', 'verified', 'failed', 'incomplete', 'not claimed')
_VERIFIED = (catalogue.PASS, catalogue.KNOWN_DIVERGENCE)
_UNVERIFIED = (catalogue.SKIP, catalogue.NOT_RUN, NEEDS_ADMIN,
               NEEDS_DISRUPTION)


def scope_results(cat, rows, claims_of_legs, mode, general=(), legs=None):
    """Per scope of the catalogue: its status, why, and its claims.

    A scope is claimed when the claims of a run (of a leg, in a merged
    report) match its ``claimed`` condition; it is certified (``verified``
    in explore mode) when every applicable MUST of it is verified, none of
    its rows failed, it verified something, and nothing outside the
    requirements failed the run (``general``: a test outside the
    catalogue, a class error no requirement explains, a leak in certify
    mode).

    :returns: [{name, title, status, reasons, claims}]; ``claims`` is one
              mapping of the scope's claim options per run that claims it
              (with the run's ``leg`` in a merged report).
    """
    out = []
    legs = legs or [None] * len(claims_of_legs)
    for scope in cat.scopes:
        claimed, why_not = [], None
        for leg, claims in zip(legs, claims_of_legs):
            why = catalogue.scope_unclaimed(scope, claims or {})
            if why:
                why_not = why_not or why
                continue
            entry = {k: (claims or {}).get(k) for k in scope.claims}
            if leg:
                entry = dict(entry, leg=leg)
            claimed.append(entry)
        if not claimed:
            out.append({'name': scope.name, 'title': scope.title,
                        'status': NOT_CLAIMED, 'reasons': [why_not],
                        'claims': []})
            continue
        mine = [r for r in rows if cat.scope_of(r['id']) == scope.name]
        applicable = [r for r in mine if r['outcome'] not in _NOT_COUNTED]
        failed = [r for r in applicable if r['outcome'] == catalogue.FAIL]
        unverified = [r for r in applicable if r['level'] == MUST
                      and r['outcome'] in _UNVERIFIED]
        reasons = []
        if failed:
            reasons.append('%d requirement(s) failed: %s'
                           % (len(failed), _ids(failed)))
        if unverified:
            reasons.append('%d applicable MUST requirement(s) not verified: '
                           '%s' % (len(unverified), _ids(unverified)))
        if not any(r['outcome'] in _VERIFIED for r in applicable):
            reasons.append('nothing of it verified')
        reasons.extend(general)
        if not reasons:
            status = CERTIFIED if mode == CERTIFY else VERIFIED
        elif failed or general or mode == CERTIFY:
            status = FAILED
        else:
            status = INCOMPLETE
        out.append({'name': scope.name, 'title': scope.title,
                    'status': status, 'reasons': reasons,
                    'claims': claimed})
    return out


def scope_line(scopes, mode, qualifiers=()):
    """The first line of a verdict: the scopes, by status.

    ``certified: host-status; not claimed: pending-state, cell0-rebuild``;
    ``qualifiers`` (a development build, a rerun) go in parentheses after
    the first word.
    """
    first = CERTIFIED if mode == CERTIFY else VERIFIED
    groups = collections.OrderedDict(
        (status, [s['name'] for s in scopes if s['status'] == status])
        for status in (first, FAILED, INCOMPLETE, NOT_CLAIMED))
    parts = []
    for status, names in groups.items():
        if names or status == first:
            head = status
            if status == first:
                head += ''.join(' (%s)' % q for q in qualifiers if q)
                if mode != CERTIFY:
                    head = 'explored, not certified; ' + head
            parts.append('%s: %s' % (head, ', '.join(names) or 'none'))
    return '; '.join(parts)


def _ids(rows):
    return ', '.join(row['id'] for row in rows)


def _verdict(rows, records, results, class_errors, broken, declared, mode,
             admin, disruptive, leaks):
    # general: what fails the run outside the requirements' own rows (it
    # keeps every scope from being certified).
    reasons, notes, general = [], [], []
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
        general.append('%d test(s) outside the catalogue failed: %s'
                       % (len(stray), ', '.join(stray[:5])))
    orphan_fixtures = [
        '%s (%s)' % (fixture, owner) for fixture, owner, rec in class_errors
        if not any(u in broken for u in _uuids_of(owner, declared))]
    if orphan_fixtures:
        general.append('class-level error(s) with no requirement behind '
                       'them: %s' % ', '.join(orphan_fixtures))
    reasons.extend(general)
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
            general.append('the run left %d resource(s) behind: %s'
                           % (len(leaks), '; '.join(leaks[:5])))
            reasons.append(general[-1])
    elif leaks:
        notes.append('the run left %d resource(s) behind: %s'
                     % (len(leaks), '; '.join(leaks[:5])))
    passed = not reasons
    head = 'VERDICT: %s (%s): %d of %d applicable requirement(s) verified' % (
        'PASS' if passed else 'FAIL', mode, len(verified), len(applicable))
    lines = cannot + [head] + ['  - ' + r for r in reasons] + [
        '  - ' + n for n in notes]
    return {'passed': passed, 'mode': mode, 'lines': lines,
            'reasons': reasons, 'notes': cannot + notes, 'general': general}


def _uuids_of(owner, declared):
    return [t.idempotent_id for t in declared
            if _owner_of(t.name) == owner]


# Which outcome of a requirement decides it when legs disagree: the first.
_DECIDES = (catalogue.FAIL, catalogue.PASS, catalogue.KNOWN_DIVERGENCE,
            NEEDS_ADMIN, NEEDS_DISRUPTION, catalogue.SKIP, catalogue.NOT_RUN,
            NOT_APPLICABLE, 'planned', 'unobservable')


# What two reports must share to be merged, compared or rerun together.
SUITE_KEYS = (('catalogue_sha256', 'catalogue sha256'),
              ('plugin_version', 'plugin version'))


def mixed(reports, names):
    """Why ``reports`` (named ``names``) are not of one suite, or None.

    Reports of another catalogue or plugin version decide their rows by
    other texts and tests: merging or comparing them names both.
    """
    for key, label in SUITE_KEYS:
        seen = collections.OrderedDict()
        for name, rep in zip(names, reports):
            seen.setdefault((rep.get('header') or {}).get(key), name)
        if len(seen) > 1:
            return 'the reports are of different suites: %s %s' % (
                label, ' vs '.join('%s (%s)' % (value, name)
                                   for value, name in seen.items()))
    return None


def run_key(report):
    """What tells two runs apart: run_id, else (leg, started, cloud).

    A report of ``pending-conformance-report`` has neither: its content.
    """
    header = report.get('header') or {}
    if header.get('run_id'):
        return header['run_id']
    if header.get('started'):
        return (header.get('leg'), header['started'], header.get('cloud_id'))
    return json.dumps(report, sort_keys=True)


def merge(reports, mode=None, names=None, allow_mixed=False, cat=None,
          qualifiers=()):
    """One report over several legs (runs) of one cloud.

    Each row is the one of the leg that decided it (a failure anywhere
    wins, then a pass...) and names that leg and its claims; the merged
    verdict fails when a row fails, when a leg's own verdict failed, or
    when nothing was verified.  With ``mode`` certify it also fails when
    an applicable MUST of the merged rows is not verified or a leg left
    resources behind (legs that each run part of the suite explore; the
    merged rows certify).  ValueError for reports of different clouds, of
    one run given twice, or (unless ``allow_mixed``) of different suites.
    """
    names = names or ['report %d' % i for i in range(1, len(reports) + 1)]
    clouds = {r['header'].get('cloud_id') for r in reports}
    if len(clouds) != 1:
        raise ValueError('the reports are of different clouds: %s'
                         % ', '.join(sorted(str(c) for c in clouds)))
    seen = {}
    for name, rep in zip(names, reports):
        if run_key(rep) in seen:
            raise ValueError('%s and %s are the same run' % (
                seen[run_key(rep)], name))
        seen[run_key(rep)] = name
    why = mixed(reports, names)
    if why and not allow_mixed:
        raise ValueError(why + ' (--allow-mixed merges them anyway)')
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
    general = []
    for rep in reports:
        general.extend('leg %s: %s' % (rep['header'].get('leg'), g)
                       for g in rep['verdict'].get('general') or ())
        if mode == CERTIFY and rep['header'].get('leaks'):
            general.append('leg %s left %d resource(s) behind' % (
                rep['header'].get('leg'), len(rep['header']['leaks'])))
    cat = cat or catalogue.load()
    if why:
        qualifiers = ('mixed suites, not certifiable',) + tuple(qualifiers)
    if mode == CERTIFY and any(suite.is_development(
            r['header'].get('plugin_version')) for r in reports):
        qualifiers = (DEVELOPMENT,) + tuple(qualifiers)
    scopes = scope_results(
        cat, merged, [r['header'].get('claims') for r in reports],
        CERTIFY if mode == CERTIFY else EXPLORE, general,
        legs=[r['header'].get('leg') or n for r, n in zip(reports, names)])
    lines = [scope_line(scopes, CERTIFY if mode == CERTIFY else EXPLORE,
                        qualifiers),
             'VERDICT: %s (merged%s, %d legs): %d of %d applicable '
             'requirement(s) verified'
             % ('PASS' if passed else 'FAIL',
                ', certify' if mode == CERTIFY else '', len(reports),
                len(verified), len(applicable))]
    lines += ['  - ' + r for r in reasons]
    header = dict(reports[0]['header'])
    if why:
        header['mixed'] = why
    header['legs'] = [{'leg': r['header'].get('leg'),
                       'claims': r['header'].get('claims'),
                       'mode': r['header'].get('mode'),
                       'passed': r['verdict']['passed']} for r in reports]
    for key in ('leg', 'claims', 'regex', 'started', 'ended', 'leaks',
                'run_id', 'command', 'attempts'):
        header.pop(key, None)
    return {'header': header, 'requirements': merged, 'totals': totals,
            'verdict': {'passed': passed, 'lines': lines,
                        'reasons': reasons, 'mode': 'merged',
                        'general': general},
            'scopes': scopes, 'exit_code': 0 if passed else 1}
