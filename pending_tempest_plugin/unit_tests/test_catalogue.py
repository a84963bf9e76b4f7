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
"""The requirement catalogue and its consistency with the tests."""

import importlib
import itertools
import os
import textwrap

from oslotest import base

from pending_tempest_plugin.common import features
from pending_tempest_plugin.common import markers
from pending_tempest_plugin.conformance import catalogue
from pending_tempest_plugin.unit_tests import fakes

UUID_A = '7c0f3f0a-2d0b-4b7e-9d55-0a3c1c6f1e01'
UUID_B = '7c0f3f0a-2d0b-4b7e-9d55-0a3c1c6f1e02'

CATALOGUE = """
specs:
  HS:
    title: Get valid server state
    link: https://docs.example.org/get-valid-server-state.html
requirements:
- id: HS-01
  section: What is changed
  text: host_status MUST be UP.
  admin: true
  disruptive: false
  status: verified
  tests: [%(a)s]
  checks:
  - clause: host_status MUST be UP
    tests:
    - %(a)s
- id: HS-02
  section: What is changed
  text: host_status MUST be DOWN.
  admin: true
  disruptive: true
  status: planned
  reason: later
  tests: []
""" % {'a': UUID_A}

TEST_MODULE = '''
from tempest.lib import decorators

from pending_tempest_plugin.common import markers


class HostStatusTest(object):

    @decorators.idempotent_id('%(a)s')
    @markers.requirements(%(reqs)s)
    def test_up(self):
        pass

    def helper(self):
        pass
'''


class TestShippedCatalogue(base.BaseTestCase):
    """The catalogue in the package against the tests in the package."""

    def setUp(self):
        super().setUp()
        self.catalogue = catalogue.load()

    def test_catalogue_is_valid(self):
        self.assertEqual([], catalogue.validate(self.catalogue))

    def test_tests_and_catalogue_agree(self):
        tests, problems = catalogue.scan_tests()
        self.assertEqual([], problems)
        self.assertEqual([], catalogue.check(self.catalogue, tests))

    def test_every_spec_has_requirements(self):
        counts = self.catalogue.count_by_spec()
        self.assertEqual(
            {'Get valid server state', 'Introduce Pending VM state',
             'Enable Rebuild for Instances in cell0'}, set(counts))

    def test_specs_are_published_titles_and_links(self):
        for prefix, spec in self.catalogue.specs.items():
            self.assertTrue(spec['link'].startswith('https://'), prefix)
            self.assertTrue(spec['blueprint'].startswith(
                'https://blueprints.launchpad.net/nova/+spec/'), prefix)

    def test_precedence_divergence_is_flagged(self):
        flagged = self.catalogue.flagged()
        self.assertEqual(['HS-10'], [r.id for r in flagged])
        self.assertEqual('2026-11-22', flagged[0].flagged['date'])
        self.assertIn('get_instance_host_status',
                      flagged[0].flagged['reason'])


class CatalogueTestCase(fakes.FileTestCase):

    def write(self, name, text):
        return super().write(name, textwrap.dedent(text))

    def load(self, text=CATALOGUE):
        return catalogue.load(self.write('requirements.yaml', text))

    def scan(self, reqs="'HS-01'"):
        self.write('pkg/tests/api/test_hs.py',
                   TEST_MODULE % {'a': UUID_A, 'reqs': reqs})
        return catalogue.scan_tests(os.path.join(self.tmp, 'pkg', 'tests'))


class TestValidate(CatalogueTestCase):

    def test_valid(self):
        cat = self.load()
        self.assertEqual([], catalogue.validate(cat))
        self.assertEqual({'Get valid server state': 2},
                         cat.count_by_spec())

    def test_missing_field_is_an_error(self):
        self.assertRaises(catalogue.CatalogueError, self.load,
                          CATALOGUE.replace('  admin: true\n', '', 1))

    def test_not_a_catalogue(self):
        self.assertRaises(catalogue.CatalogueError, self.load, '- a\n')

    def assertProblem(self, text, expected):
        problems = catalogue.validate(self.load(text))
        self.assertTrue(any(expected in p for p in problems), problems)

    def test_member_tests(self):
        member = CATALOGUE.replace(
            '  tests: [%s]\n' % UUID_A,
            '  tests: [%s]\n  member_tests: [%s]\n' % (UUID_A, UUID_A), 1)
        self.assertProblem(member, 'HS-01: member_tests on a requirement '
                                   'that needs admin')
        member = member.replace('  admin: true\n', '  admin: false\n', 1)
        self.assertEqual([], catalogue.validate(self.load(member)))
        self.assertEqual([UUID_A], self.load(member).by_id['HS-01']
                         .member_tests)
        self.assertProblem(member.replace('member_tests: [%s]' % UUID_A,
                                          'member_tests: [x-1]'),
                           'HS-01: member_tests x-1 are not among its tests')

    def test_requirement_with_neither_test_nor_reason(self):
        self.assertProblem(CATALOGUE.replace('  reason: later\n', ''),
                           'HS-02: planned without a reason')

    def test_verified_without_test(self):
        self.assertRaises(catalogue.CatalogueError, self.load,
                          CATALOGUE.replace('[%s]' % UUID_A, '[]'))

    def assertRefused(self, text, *expected):
        error = self.assertRaises(catalogue.CatalogueError, self.load, text)
        for sentence in expected:
            self.assertIn(sentence, str(error))

    def test_clause_without_test_is_refused(self):
        self.assertRefused(
            CATALOGUE.replace('    tests:\n    - %s\n' % UUID_A,
                              '    tests: []\n'),
            "HS-01: clause 'host_status MUST be UP' is asserted by no test",
            'HS-01: tests %s assert none of its clauses' % UUID_A)

    def test_verified_without_checks_is_refused(self):
        self.assertRefused(
            CATALOGUE.replace(
                '  checks:\n  - clause: host_status MUST be UP\n'
                '    tests:\n    - %s\n' % UUID_A, ''),
            'HS-01: verified but ties no clause of its text to a test')

    def test_clause_must_be_verbatim_and_in_order(self):
        self.assertRefused(
            CATALOGUE.replace('clause: host_status MUST be UP',
                              'clause: host_status MUST be DOWN'),
            "HS-01: clause 'host_status MUST be DOWN' is not in its text")
        two = CATALOGUE.replace(
            '  - clause: host_status MUST be UP\n    tests:\n    - %s\n'
            % UUID_A,
            '  - clause: be UP\n    tests: [%s]\n'
            '  - clause: host_status MUST\n    tests: [%s]\n'
            % (UUID_A, UUID_A))
        self.assertRefused(two, "clause 'host_status MUST' is not in its "
                                "text (after the clause before it)")

    def test_text_outside_clauses_is_refused(self):
        # Only connectives and punctuation may be left outside clauses.
        self.assertRefused(
            CATALOGUE.replace('clause: host_status MUST be UP',
                              'clause: host_status MUST'),
            'HS-01: text outside its clauses: UP')
        self.assertEqual([], catalogue.validate(self.load(CATALOGUE.replace(
            'clause: host_status MUST be UP', 'clause: host_status MUST be'
            ).replace('text: host_status MUST be UP.',
                      'text: host_status MUST be, and UP.').replace(
            '    - %s\n- id: HS-02' % UUID_A,
            '    - %s\n  - clause: UP\n    tests: [%s]\n- id: HS-02'
            % (UUID_A, UUID_A)))))

    def test_clause_test_must_be_the_requirements(self):
        self.assertRefused(
            CATALOGUE.replace('    - %s\n' % UUID_A, '    - %s\n' % UUID_B),
            "HS-01: clause 'host_status MUST be UP' names %s, not among its "
            "tests" % UUID_B)

    def test_checks_must_be_clauses_with_tests(self):
        self.assertRefused(
            CATALOGUE.replace('  - clause: host_status MUST be UP\n',
                              '  - claus: host_status MUST be UP\n'),
            'HS-01: checks must be a list of mappings')

    def test_checks_on_a_planned_requirement(self):
        text = CATALOGUE.replace(
            '  reason: later\n',
            '  reason: later\n  checks:\n  - clause: host_status MUST\n'
            '    tests: []\n')
        self.assertProblem(text, 'HS-02: checks on a requirement that is '
                                 'planned, not verified')

    def test_planned_with_tests(self):
        self.assertProblem(
            CATALOGUE.replace('status: verified', 'status: planned'),
            'HS-01: names tests but is planned')

    def test_unknown_status(self):
        self.assertProblem(CATALOGUE.replace('status: planned', 'status: x'),
                           "HS-02: status 'x' is not one of")

    def test_no_rfc2119_keyword(self):
        self.assertProblem(CATALOGUE.replace('MUST be DOWN', 'is DOWN'),
                           'HS-02: text has no RFC 2119 keyword')

    def test_duplicate_id_and_unknown_prefix(self):
        text = CATALOGUE.replace('HS-02', 'HS-01')
        self.assertProblem(text, 'HS-01: duplicate id')
        self.assertProblem(CATALOGUE.replace('HS-02', 'XX-02'),
                           'XX-02: prefix names no spec')

    def test_spec_needs_title_and_published_link(self):
        link = '    link: https://docs.example.org/get-valid-server-state.html'
        self.assertProblem(
            CATALOGUE.replace(link, '    link: get-valid-server-state.rst'),
            "spec HS: link must be the http(s) address where it is "
            "published, got 'get-valid-server-state.rst'")
        self.assertProblem(CATALOGUE.replace(link + '\n', ''),
                           'spec HS: link must be the http(s) address')
        self.assertProblem(
            CATALOGUE.replace('    title: Get valid server state\n', ''),
            'spec HS: needs its published title')
        self.assertProblem(
            CATALOGUE.replace(link, link + '\n    file: x.rst'),
            'spec HS: unknown key(s) file')

    def test_flag_needs_reason_and_date(self):
        flagged = CATALOGUE + '  flagged: {date: "2026-11-22"}\n'
        self.assertProblem(flagged, 'HS-02: flagged needs a reason')
        flagged = CATALOGUE + '  flagged: {date: soon, reason: r}\n'
        self.assertProblem(flagged, 'HS-02: flagged needs a date')
        flagged = CATALOGUE + '  flagged: {date: "2026-11-22", reason: r}\n'
        self.assertEqual([], catalogue.validate(self.load(flagged)))


class TestScanAndCheck(CatalogueTestCase):

    def test_consistent(self):
        tests, problems = self.scan()
        self.assertEqual([], problems)
        self.assertEqual(1, len(tests))
        self.assertEqual(UUID_A, tests[0].idempotent_id)
        self.assertEqual('pkg.tests.api.test_hs.HostStatusTest.test_up',
                         tests[0].name)
        self.assertEqual([], catalogue.check(self.load(), tests))

    def test_unknown_requirement(self):
        tests, _ = self.scan("'HS-01', 'HS-99'")
        self.assertIn('pkg.tests.api.test_hs.HostStatusTest.test_up: names '
                      'unknown requirement HS-99',
                      catalogue.check(self.load(), tests))

    def test_test_not_listed_by_the_requirement(self):
        tests, _ = self.scan("'HS-01', 'HS-02'")
        problems = catalogue.check(self.load(), tests)
        self.assertEqual(1, len(problems), problems)
        self.assertIn('declares HS-02 but the catalogue does not list',
                      problems[0])

    def test_catalogue_names_a_missing_test(self):
        problems = catalogue.check(self.load(), [])
        self.assertEqual(['HS-01: lists test %s, which no test under tests/ '
                          'carries' % UUID_A], problems)

    def test_catalogue_names_a_test_that_does_not_declare_it(self):
        test = catalogue.DeclaredTest(UUID_A, 'm.C.test_x', 'p', ('HS-02',))
        problems = catalogue.check(self.load(), [test])
        self.assertIn('HS-01: lists m.C.test_x, which does not declare it',
                      problems)

    def test_duplicate_idempotent_id(self):
        tests = [catalogue.DeclaredTest(UUID_A, 'm.C.test_%s' % n, 'p',
                                        ('HS-01',)) for n in 'xy']
        problems = catalogue.check(self.load(), tests)
        self.assertIn('m.C.test_y: idempotent_id %s also used by m.C.test_x'
                      % UUID_A, problems)

    def scan_bare(self, decorator):
        self.write('pkg/tests/test_bare.py', '''
            class T(object):
                @%s
                def test_bare(self):
                    pass
            ''' % decorator)
        return catalogue.scan_tests(os.path.join(self.tmp, 'pkg', 'tests'))[1]

    def test_test_without_requirement_marker(self):
        problems = self.scan_bare("decorators.idempotent_id('%s')" % UUID_B)
        self.assertEqual(['pkg.tests.test_bare.T.test_bare: declares no '
                          'requirement (use @markers.requirements with '
                          'string literals)'], problems)

    def test_requirements_without_idempotent_id(self):
        problems = self.scan_bare("markers.requirements('HS-01')")
        self.assertIn('has no literal idempotent_id', problems[0])


class TestMarkers(base.BaseTestCase):

    def test_marker_records_ids(self):
        @markers.requirements('HS-01', 'HS-05')
        def test_x():
            pass
        self.assertEqual(('HS-01', 'HS-05'),
                         getattr(test_x, markers.ATTRIBUTE))

    def test_marker_needs_string_ids(self):
        self.assertRaises(ValueError, markers.requirements)
        self.assertRaises(TypeError, markers.requirements, 1)


class TestOutcomes(CatalogueTestCase):

    def test_outcomes(self):
        both = '[%s, %s]' % (UUID_A, UUID_B)
        cat = self.load(CATALOGUE.replace('[%s]' % UUID_A, both).replace(
            '    - %s\n' % UUID_A, '    - %s\n    - %s\n' % (UUID_A, UUID_B)))
        out = catalogue.requirement_outcomes
        self.assertEqual(('pass', ''), out(cat, {UUID_A: 'pass',
                                                 UUID_B: 'pass'})['HS-01'])
        self.assertEqual('fail', out(cat, {UUID_A: 'pass',
                                           UUID_B: 'fail'})['HS-01'][0])
        self.assertEqual('skip', out(cat, {UUID_A: 'skip',
                                           UUID_B: 'pass'})['HS-01'][0])
        self.assertEqual('not run', out(cat, {UUID_A: 'pass'})['HS-01'][0])
        self.assertEqual(('planned', ''), out(cat, {})['HS-02'])

    def test_xfail_is_a_failure_unless_flagged(self):
        cat = self.load(CATALOGUE)
        self.assertEqual('fail', catalogue.requirement_outcomes(
            cat, {UUID_A: 'xfail'})['HS-01'][0])
        flag = ('  flagged: {date: "2026-11-22", reason: "spec says\n'
                '    MAINTENANCE"}\n')
        cat = self.load(CATALOGUE.replace('  tests: [%s]\n' % UUID_A,
                                          '  tests: [%s]\n' % UUID_A + flag))
        self.assertEqual(('known divergence',
                          'flagged 2026-11-22: spec says MAINTENANCE'),
                         catalogue.requirement_outcomes(
                             cat, {UUID_A: 'xfail'})['HS-01'])

    def test_flag_is_always_reported(self):
        flag = ('  flagged: {date: "2026-11-22", reason: "spec says\n'
                '    MAINTENANCE"}\n')
        cat = self.load(CATALOGUE + flag)
        self.assertEqual(
            ('planned', 'flagged 2026-11-22: spec says MAINTENANCE'),
            catalogue.requirement_outcomes(cat, {})['HS-02'])
        shipped = catalogue.requirement_outcomes(catalogue.load(), {})
        self.assertTrue(shipped['HS-10'][1].startswith('flagged 2026-11-22'))


class TestApplicability(fakes.ConfTestCase):
    """A row's ``applies:`` and its tests' ``required_features`` agree.

    Wherever a verified row applies (every combination of the claims a
    feature reads, each valid configuration), at least one of its tests
    runs rather than skips: a row that applied where all its tests skip
    would never be decided.  The claims' features are the ones evaluated
    (the ``FEATURES_OF_CLAIMS``); the others (a disruptive compute, a
    network, volumes, notifications ...) are what the cloud can do, not
    what it claims, and are taken as available.
    """

    FEATURES_OF_CLAIMS = frozenset([
        'pending_enabled', 'pending_enabled_any_trigger', 'pending_disabled',
        'pending_microversion', 'cell0_rebuild', 'cell0_rebuild_microversion',
        'new_microversion', 'build_failure', 'novalidhost', 'two_cells'])
    CLAIMS = (
        ('compute_host_cells', ({}, {'cn1': 'cell1', 'cn2': 'cell1'},
                                {'cn1': 'cell1', 'cn2': 'cell2'})),
        ('pending_state_enabled', (True, False)),
        ('pending_state_microversion', (None, '2.105')),
        ('cell0_rebuild_microversion', (None, '2.106')),
        ('build_failure_metadata', (None, 'fail=yes')),
        ('host_status_policy_profile', ('admin_only', 'admin_or_owner',
                                        'unknown_only')))

    def classes(self):
        tests, problems = catalogue.scan_tests()
        self.assertEqual([], problems)
        found = {}
        for test in tests:
            module, cls, _ = test.name.rsplit('.', 2)
            found[test.idempotent_id] = getattr(
                importlib.import_module(module), cls)
        return found

    def runs(self, cls):
        """Whether CLS's claim features let it run under self.group."""
        for feature in getattr(cls, 'required_features', ()):
            if (feature.__name__ in self.FEATURES_OF_CLAIMS
                    and feature(group=self.group)):
                return False
        return True

    def combinations(self):
        self.set(novalidhost_trigger='trait', capacity_hosts=['cn1', 'cn2'])
        names = [name for name, _ in self.CLAIMS]
        for values in itertools.product(*[v for _, v in self.CLAIMS]):
            claims = dict(zip(names, values))
            self.set(**claims)
            if not features.config_problems(self.group):
                yield claims

    def undecided(self, rows, classes):
        """(row, claims) where the row applies and none of its tests runs."""
        found = []
        for claims in self.combinations():
            for req in rows:
                if catalogue.applicable(req, claims) is None and not any(
                        self.runs(classes[uuid]) for uuid in req.tests):
                    found.append((req.id, tuple(sorted(
                        (k, repr(v)) for k, v in claims.items()
                        if k != 'host_status_policy_profile'))))
        return sorted(set(found), key=repr)

    def test_every_verified_row_has_a_test_wherever_it_applies(self):
        rows = [r for r in catalogue.load().requirements if r.tests]
        self.assertEqual([], self.undecided(rows, self.classes()))

    def test_a_row_that_applies_where_its_tests_skip_is_found(self):
        # PEND-04 stripped of its applies: its PENDING tests skip where
        # pending_state_enabled is False, and the row would apply there.
        row = [r for r in catalogue.load().requirements
               if r.id == 'PEND-04'][0]
        loose = row._replace(applies={})
        found = self.undecided([loose], self.classes())
        self.assertTrue(found)
        self.assertEqual({'PEND-04'}, set(row_id for row_id, _ in found))
        self.assertTrue(all(('pending_state_enabled', 'False') in claims
                            for _, claims in found))
