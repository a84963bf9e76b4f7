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
"""The requirement catalogue (``requirements.yaml``) and its checks.

``load()`` reads the catalogue; ``scan_tests()`` finds, without importing
them, the tests under ``pending_tempest_plugin/tests`` with their
``idempotent_id`` and the requirements they declare with
``common.markers.requirements``; ``check()`` returns every inconsistency
between the two as a readable sentence (an empty list means consistent).
"""

import ast
import collections
import datetime
import os
import re

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
CATALOGUE_PATH = os.path.join(HERE, 'requirements.yaml')
TESTS_DIR = os.path.join(os.path.dirname(HERE), 'tests')

STATUSES = ('verified', 'planned', 'unobservable')
RFC2119 = re.compile(r'\b(MUST|SHALL|REQUIRED|SHOULD|RECOMMENDED|MAY|'
                     r'OPTIONAL)\b')
ID_PATTERN = re.compile(r'^(?P<prefix>[A-Z]+)-\d{2,}$')
REQUIRED_FIELDS = ('id', 'section', 'text', 'admin', 'disruptive', 'status',
                   'tests')

Requirement = collections.namedtuple(
    'Requirement', ['id', 'spec', 'section', 'text', 'admin', 'disruptive',
                    'status', 'tests', 'reason', 'flagged', 'note',
                    'applies', 'member_tests', 'checks'])
Requirement.__new__.__defaults__ = ((), ())
# One clause of a requirement's text and the tests that assert it.
Check = collections.namedtuple('Check', ['clause', 'tests'])
# The words a requirement's text may have outside its clauses: what joins
# clauses, never what a test would have to check.
CONNECTIVES = frozenset('''
    and or but nor the a an its it their with while then also both either
    each every that which who of to for in on at by as is are be not
'''.split())
# A certification scope: the requirements of its specs, claimed when the
# claims match ``claimed`` (an ``applies`` condition), run with ``claims``.
Scope = collections.namedtuple('Scope', ['name', 'title', 'specs',
                                         'claimed', 'claims'])
SCOPE_NAME = re.compile(r'^[a-z][a-z0-9-]*$')
DeclaredTest = collections.namedtuple(
    'DeclaredTest', ['idempotent_id', 'name', 'path', 'requirements'])


class CatalogueError(Exception):
    """The catalogue file cannot be read as a catalogue at all."""


class Catalogue(object):

    def __init__(self, specs, requirements, scopes=()):
        self.specs = specs
        self.requirements = requirements
        self.scopes = tuple(scopes)
        self.by_id = {r.id: r for r in requirements}

    def scope_of(self, req_id):
        """The name of the scope of a requirement id (None: no scope)."""
        prefix = str(req_id).split('-', 1)[0]
        for scope in self.scopes:
            if prefix in scope.specs:
                return scope.name
        return None

    def count_by_spec(self):
        counts = collections.Counter(r.spec for r in self.requirements)
        return dict(counts)

    def flagged(self):
        return [r for r in self.requirements if r.flagged]


def load(path=CATALOGUE_PATH):
    """Read the catalogue; raise CatalogueError if its shape is wrong."""
    with open(path) as f:
        data = yaml.safe_load(f)
    if not isinstance(data, dict) or not isinstance(
            data.get('requirements'), list):
        raise CatalogueError('%s: expected a mapping with a "requirements" '
                             'list' % path)
    specs = data.get('specs') or {}
    reqs = []
    for index, entry in enumerate(data['requirements']):
        if not isinstance(entry, dict):
            raise CatalogueError('%s: requirement #%d is not a mapping'
                                 % (path, index + 1))
        missing = [f for f in REQUIRED_FIELDS if f not in entry]
        if missing:
            raise CatalogueError('%s: requirement %s lacks %s' % (
                path, entry.get('id', '#%d' % (index + 1)),
                ', '.join(missing)))
        match = ID_PATTERN.match(str(entry['id']))
        prefix = match.group('prefix') if match else None
        reqs.append(Requirement(
            id=str(entry['id']),
            spec=(specs.get(prefix) or {}).get('title'),
            section=entry['section'], text=entry['text'],
            admin=entry['admin'], disruptive=entry['disruptive'],
            status=entry['status'], tests=list(entry['tests'] or []),
            reason=entry.get('reason'), flagged=entry.get('flagged'),
            note=entry.get('note'), applies=entry.get('applies') or {},
            member_tests=list(entry.get('member_tests') or []),
            checks=_load_checks(path, entry)))
    problems = [p for req in reqs if req.status == 'verified'
                for p in check_clauses(req)]
    if problems:
        raise CatalogueError('%s: clauses not tied to tests:\n  %s'
                             % (path, '\n  '.join(problems)))
    return Catalogue(specs, reqs, _load_scopes(path, data.get('scopes')))


def _load_scopes(path, entries):
    if entries is None:
        return []
    if not isinstance(entries, list):
        raise CatalogueError('%s: "scopes" must be a list (the '
                             'certification scopes)' % path)
    scopes = []
    for entry in entries:
        if not isinstance(entry, dict) or set(entry) != {
                'name', 'title', 'specs', 'claimed', 'claims'}:
            raise CatalogueError(
                '%s: scope %r: needs exactly name, title, specs, claimed '
                'and claims' % (path, entry.get('name') if isinstance(
                    entry, dict) else entry))
        scopes.append(Scope(
            str(entry['name']), str(entry['title']),
            tuple(entry['specs'] or ()), entry['claimed'] or {},
            tuple(entry['claims'] or ())))
    return scopes


def _load_checks(path, entry):
    checks = entry.get('checks') or []
    if not isinstance(checks, list) or not all(
            isinstance(c, dict) and isinstance(c.get('clause'), str)
            and isinstance(c.get('tests'), list) for c in checks):
        raise CatalogueError(
            '%s: requirement %s: checks must be a list of mappings with a '
            '"clause" (text) and "tests" (a list)' % (path, entry['id']))
    return tuple(Check(c['clause'], tuple(c['tests'])) for c in checks)


def check_clauses(req):
    """Problems of a requirement's ``checks``: every clause tied to a test.

    A verified requirement splits its text into clauses, each a verbatim
    fragment of the text in order, and names for each the tests (among its
    own) that assert it. Outside its clauses the text may only have
    punctuation and connectives (CONNECTIVES): a clause no test asserts
    cannot hide there. Every test of the requirement asserts a clause.
    """
    rid = req.id
    if req.status != 'verified':
        return (['%s: checks on a requirement that is %s, not verified'
                 % (rid, req.status)] if req.checks else [])
    if not req.checks:
        return ['%s: verified but ties no clause of its text to a test '
                '(checks:)' % rid]
    problems = []
    rest, position, used = [], 0, set()
    for check in req.checks:
        found = req.text.find(check.clause, position) if check.clause else -1
        if found < 0:
            problems.append('%s: clause %r is not in its text (after the '
                            'clause before it)' % (rid, check.clause))
            continue
        rest.append(req.text[position:found])
        position = found + len(check.clause)
        if not check.tests:
            problems.append('%s: clause %r is asserted by no test'
                            % (rid, check.clause))
        stray = [t for t in check.tests if t not in req.tests]
        if stray:
            problems.append('%s: clause %r names %s, not among its tests'
                            % (rid, check.clause, ', '.join(stray)))
        used.update(check.tests)
    rest.append(req.text[position:])
    words = [w for w in re.findall(r"[\w'./{}-]+", ' '.join(rest))
             if w.strip('.-').lower() not in CONNECTIVES and w.strip('.-')]
    if words:
        problems.append('%s: text outside its clauses: %s'
                        % (rid, ' '.join(words)))
    unused = [t for t in req.tests if t not in used]
    if unused:
        problems.append('%s: tests %s assert none of its clauses'
                        % (rid, ', '.join(unused)))
    return problems


def validate(catalogue):
    """Problems of the catalogue on its own (no tests involved)."""
    problems = _validate_specs(catalogue.specs)
    problems.extend(_validate_scopes(catalogue))
    seen = set()
    for req in catalogue.requirements:
        rid = req.id
        if not ID_PATTERN.match(rid):
            problems.append('%s: id must look like PREFIX-nn' % rid)
        elif req.spec is None:
            problems.append('%s: prefix names no spec of the "specs" '
                            'mapping' % rid)
        if rid in seen:
            problems.append('%s: duplicate id' % rid)
        seen.add(rid)
        if not RFC2119.search(req.text or ''):
            problems.append('%s: text has no RFC 2119 keyword' % rid)
        for field in ('admin', 'disruptive'):
            if not isinstance(getattr(req, field), bool):
                problems.append('%s: %s must be true or false' % (rid, field))
        if req.status not in STATUSES:
            problems.append('%s: status %r is not one of %s'
                            % (rid, req.status, ', '.join(STATUSES)))
        elif req.status != 'verified':
            if req.tests:
                problems.append('%s: names tests but is %s, not verified'
                                % (rid, req.status))
            if not (req.reason or '').strip():
                problems.append('%s: %s without a reason' % (rid, req.status))
        problems.extend(_validate_flag(req))
        problems.extend(_validate_applies(req))
        if req.status in STATUSES and req.status != 'verified':
            problems.extend(check_clauses(req))
        if req.member_tests and req.admin:
            problems.append('%s: member_tests on a requirement that needs '
                            'admin' % rid)
        stray = [t for t in req.member_tests if t not in req.tests]
        if stray:
            problems.append('%s: member_tests %s are not among its tests'
                            % (rid, ', '.join(stray)))
    return problems


def _validate_specs(specs):
    """Each spec is named by its published title and where it is published.

    ``title`` as the spec's own heading reads; ``link`` (and an optional
    ``blueprint``) an http(s) address, never a path on someone's machine.
    """
    problems = []
    for prefix, spec in sorted(specs.items()):
        if not isinstance(spec, dict) or not str(
                spec.get('title') or '').strip():
            problems.append('spec %s: needs its published title' % prefix)
            continue
        for key in ('link', 'blueprint'):
            value = spec.get(key)
            if (value is not None or key == 'link') and not re.match(
                    r'^https?://\S+$', str(value or '')):
                problems.append('spec %s: %s must be the http(s) address '
                                'where it is published, got %r'
                                % (prefix, key, value))
        unknown = sorted(set(spec) - {'title', 'link', 'blueprint'})
        if unknown:
            problems.append('spec %s: unknown key(s) %s'
                            % (prefix, ', '.join(unknown)))
    return problems


# The claims an ``applies`` condition may name: options of
# [nova_conformance] that say what the cloud implements, or (the build
# failure metadata) what a test cloud lets the suite cause, without which a
# behaviour cannot be reached through any API.  ``claimed`` means "set to
# any value" (a feature microversion).
CLAIM_KEYS = {
    'build_failure_metadata': ('claimed',),
    'pending_state_enabled': (True, False),
    'pending_state_microversion': ('claimed',),
    'cell0_rebuild_microversion': ('claimed',),
    'host_status_policy_profile': ('admin_only', 'admin_or_owner',
                                   'unknown_only'),
    # Hosts claimed in two cells or more (HOST:CELL pairs).
    'compute_host_cells': ('several',),
}


def _validate_scopes(catalogue):
    """Each spec in exactly one scope; names, conditions and claims valid."""
    from pending_tempest_plugin.conformance import claims as claims_mod

    problems, owner = [], {}
    options = set(claims_mod.defaults())
    for scope in catalogue.scopes:
        where = 'scope %s' % scope.name
        if not SCOPE_NAME.match(scope.name):
            problems.append('%s: a name of lower-case words joined by "-"'
                            % where)
        if scope.name in catalogue.specs:
            problems.append('%s: named like a spec prefix' % where)
        for prefix in scope.specs:
            if prefix not in catalogue.specs:
                problems.append('%s: %s names no spec' % (where, prefix))
            elif prefix in owner:
                problems.append('%s: spec %s is already in scope %s'
                                % (where, prefix, owner[prefix]))
            owner.setdefault(prefix, scope.name)
        problems.extend(p.replace(where + ': applies', where + ': claimed')
                        for p in _validate_applies(_scope_condition(scope)))
        unknown = [c for c in scope.claims if c not in options]
        if unknown:
            problems.append('%s: claims %s are not [nova_conformance] '
                            'options' % (where, ', '.join(unknown)))
    for prefix in sorted(set(catalogue.specs) - set(owner)):
        if catalogue.scopes:
            problems.append('spec %s: in no scope' % prefix)
    return problems


def _scope_condition(scope):
    """A scope's ``claimed`` as the requirement ``applies`` reads."""
    return Requirement('scope %s' % scope.name, None, None, None, None, None,
                       None, (), None, None, None, scope.claimed)


def scope_unclaimed(scope, claims):
    """None if the claims claim ``scope``, else why not (as applicable)."""
    return applicable(_scope_condition(scope), claims)


def _validate_applies(req):
    if not isinstance(req.applies, dict):
        return ['%s: applies must be a mapping of claims' % req.id]
    problems = []
    for key, value in sorted(req.applies.items()):
        if key not in CLAIM_KEYS:
            problems.append('%s: applies names %r, not one of %s' % (
                req.id, key, ', '.join(sorted(CLAIM_KEYS))))
        elif value not in CLAIM_KEYS[key]:
            problems.append('%s: applies %s: %r is not one of %s' % (
                req.id, key, value,
                ', '.join(str(v) for v in CLAIM_KEYS[key])))
    return problems


def claimed_profiles(claims):
    """The host_status policy profiles a run shows.

    The cloud's own, then those its other compute endpoints show
    (host_status_profile_services).
    """
    return [claims.get('host_status_policy_profile')] + sorted(
        claims.get('host_status_profile_services') or {})


def applicable(req, claims):
    """None if ``req`` applies to a cloud with ``claims``, else why not.

    :param claims: [nova_conformance] option -> value (what the run was
                   told the cloud implements).
    """
    for key, want in sorted(req.applies.items()):
        have = claims.get(key)
        if key == 'host_status_policy_profile':
            shown = claimed_profiles(claims)
            if want not in shown:
                return 'applies when %s = %s; the claims say %s' % (
                    key, want, ', '.join(str(p) for p in shown))
            continue
        if key == 'compute_host_cells':
            cells = sorted(set((have or {}).values()))
            if len(cells) < 2:
                return ('applies on a cloud of several cells; the claims '
                        'say %s' % (', '.join(cells) or 'none'))
            continue
        if want == 'claimed':
            if not have:
                return 'not claimed: %s is unset' % key
        elif have != want:
            return 'applies when %s = %s; the claims say %s' % (
                key, str(want).lower() if isinstance(want, bool) else want,
                str(have).lower() if isinstance(have, bool) else have)
    return None


def _validate_flag(req):
    if req.flagged is None:
        return []
    flag = req.flagged
    if not isinstance(flag, dict) or not str(
            flag.get('reason') or '').strip():
        return ['%s: flagged needs a reason' % req.id]
    try:
        datetime.date.fromisoformat(str(flag.get('date')))
    except ValueError:
        return ['%s: flagged needs a date (YYYY-MM-DD)' % req.id]
    return []


def _decorator_call(node, name):
    """The ast.Call of decorator ``name`` (bare or dotted), if any."""
    for dec in node.decorator_list:
        if not isinstance(dec, ast.Call):
            continue
        func = dec.func
        called = func.attr if isinstance(func, ast.Attribute) else getattr(
            func, 'id', None)
        if called == name:
            return dec
    return None


def _literal_args(call):
    values = []
    for arg in call.args:
        if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
            return None
        values.append(arg.value)
    return values


def _scan_file(path, module):
    with open(path) as f:
        tree = ast.parse(f.read(), filename=path)
    found, problems = [], []
    for cls in [n for n in tree.body if isinstance(n, ast.ClassDef)]:
        for func in cls.body:
            if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            name = '%s.%s.%s' % (module, cls.name, func.name)
            uuid_call = _decorator_call(func, 'idempotent_id')
            req_call = _decorator_call(func, 'requirements')
            if uuid_call is None and req_call is None:
                continue
            uuid = _literal_args(uuid_call) if uuid_call else None
            reqs = _literal_args(req_call) if req_call else None
            if not uuid:
                problems.append('%s: declares requirements but has no '
                                'literal idempotent_id' % name)
                continue
            if not reqs:
                problems.append('%s: declares no requirement (use '
                                '@markers.requirements with string '
                                'literals)' % name)
                reqs = []
            found.append(DeclaredTest(uuid[0], name, path, tuple(reqs)))
    return found, problems


def scan_tests(tests_dir=TESTS_DIR):
    """Return (declared tests, problems) for every test module below."""
    tests, problems = [], []
    top = os.path.dirname(os.path.dirname(tests_dir))
    for root, dirs, files in os.walk(tests_dir):
        dirs.sort()
        for fname in sorted(files):
            if not (fname.startswith('test_') and fname.endswith('.py')):
                continue
            path = os.path.join(root, fname)
            module = os.path.relpath(path, top)[:-3].replace(os.sep, '.')
            found, bad = _scan_file(path, module)
            tests.extend(found)
            problems.extend(bad)
    return tests, problems


def check(catalogue, tests):
    """Problems between the catalogue and the declared tests."""
    problems = []
    by_uuid = {}
    for test in tests:
        if test.idempotent_id in by_uuid:
            problems.append('%s: idempotent_id %s also used by %s' % (
                test.name, test.idempotent_id,
                by_uuid[test.idempotent_id].name))
        by_uuid[test.idempotent_id] = test
        for rid in test.requirements:
            req = catalogue.by_id.get(rid)
            if req is None:
                problems.append('%s: names unknown requirement %s'
                                % (test.name, rid))
            elif test.idempotent_id not in req.tests:
                problems.append('%s: declares %s but the catalogue does not '
                                'list %s under it' % (
                                    test.name, rid, test.idempotent_id))
    for req in catalogue.requirements:
        for uuid in req.tests:
            test = by_uuid.get(uuid)
            if test is None:
                problems.append('%s: lists test %s, which no test under '
                                'tests/ carries' % (req.id, uuid))
            elif req.id not in test.requirements:
                problems.append('%s: lists %s, which does not declare it'
                                % (req.id, test.name))
    return problems


# Outcome of a requirement in a run, from the outcomes of its tests.
PASS, FAIL, SKIP, NOT_RUN = 'pass', 'fail', 'skip', 'not run'
# A test result (subunit ``xfail``): the test saw the known divergence of a
# flagged requirement.  As a requirement outcome it reads "known
# divergence"; on a requirement that is not flagged it is a failure.
XFAIL = 'xfail'
KNOWN_DIVERGENCE = 'known divergence'


def requirement_outcomes(catalogue, results):
    """Per requirement: (outcome, detail) from test results.

    :param results: idempotent_id -> ``pass`` | ``fail`` | ``skip`` |
                    ``xfail`` for the tests of a run (a test missing from
                    it was not run).
    A requirement fails if any of its tests failed, passes if all passed,
    is a ``known divergence`` if a test of a flagged requirement saw the
    divergence (an ``xfail`` elsewhere is a failure), and is otherwise
    skipped or not run; ``planned`` and ``unobservable``
    requirements report their status.  The detail of a flagged requirement
    always carries its flag, so that a known divergence is never reported
    as a plain failure nor hidden behind a pass.
    """
    outcomes = {}
    for req in catalogue.requirements:
        if req.status != 'verified':
            outcome = req.status
        else:
            seen = [results.get(uuid, NOT_RUN) for uuid in req.tests]
            if XFAIL in seen:
                seen.append(KNOWN_DIVERGENCE if req.flagged else FAIL)
            for candidate in (FAIL, NOT_RUN, SKIP, KNOWN_DIVERGENCE):
                if candidate in seen:
                    outcome = candidate
                    break
            else:
                outcome = PASS
        detail = ''
        if req.flagged:
            detail = 'flagged %s: %s' % (req.flagged['date'],
                                         ' '.join(req.flagged['reason']
                                                  .split()))
        outcomes[req.id] = (outcome, detail)
    return outcomes
