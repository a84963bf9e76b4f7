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
"""The nova mutants without a cloud.

pending_aio/mutants/mutant.py and the definitions beside the reference
series, reference/nova/mutants/mutants.py.
"""

import contextlib
import datetime
import io
import json
import os
import re
import shutil
import subprocess
import tempfile

import fixtures
from oslotest import base

from pending_aio.mutants import mutant as nova_mutant
from pending_tempest_plugin import config as project_config
from pending_tempest_plugin.conformance import catalogue

DEFS = nova_mutant.DEFINITIONS


class TestMutants(base.BaseTestCase):

    def test_each_mutant_is_well_formed(self):
        known = catalogue.load().by_id
        for name, mutant in nova_mutant.MUTANTS.items():
            self.assertNotEqual(mutant['old'], mutant['new'], name)
            self.assertTrue(mutant['requirements'], name)
            for rid in mutant['requirements']:
                self.assertIn(rid, known, name)
            self.assertTrue(mutant['tests'].startswith(
                '^pending_tempest_plugin\\.tests\\.'), name)
            re.compile(mutant['tests'])
            self.assertTrue(mutant['file'].startswith('nova/'), name)
            self.assertTrue(mutant['programs'], name)
            self.assertIn(mutant.get('profile', 'admin_only'),
                          project_config.POLICY_PROFILES, name)


def test_ids():
    """The plugin's test ids as tempest names them, with requirements."""
    tests, _ = catalogue.scan_tests()
    return {'%s[id-%s]' % (t.name, t.idempotent_id): t.requirements
            for t in tests}


class TestKillMatrix(base.BaseTestCase):
    """Every verified requirement has a mutant its tests must catch."""

    def test_every_verified_requirement_has_a_mutant_or_a_reason(self):
        covered = {rid for mutant in nova_mutant.MUTANTS.values()
                   for rid in mutant['requirements']}
        for req in catalogue.load().requirements:
            if req.status != 'verified':
                continue
            if req.id in nova_mutant.EXEMPT:
                self.assertNotIn(req.id, covered,
                                 '%s has a mutant: drop its exemption'
                                 % req.id)
                self.assertGreater(len(nova_mutant.EXEMPT[req.id]), 20,
                                   '%s: the exemption needs a reason'
                                   % req.id)
            else:
                self.assertIn(req.id, covered,
                              '%s is verified but has no mutant' % req.id)

    def test_running_doc_lists_every_mutant(self):
        # doc/source/running.rst tables each mutant with its requirements.
        doc = os.path.join(os.path.dirname(__file__), '..', '..', 'doc',
                           'source', 'running.rst')
        rows = {}
        with open(doc) as f:
            for line in f:
                # Columns of 48 and 26 characters, a space between.
                name = re.match(r'^``([a-z0-9-]+)``\s', line[:49])
                if name:
                    rows[name.group(1)] = line[49:75].strip()
        for name, mutant in nova_mutant.MUTANTS.items():
            self.assertEqual(', '.join(mutant['requirements']),
                             rows.get(name),
                             'running.rst: the row of mutant %s' % name)

    def test_mutant_tests_declare_its_requirements(self):
        tests = test_ids()
        for name, mutant in nova_mutant.MUTANTS.items():
            declared = set()
            for test, reqs in tests.items():
                if re.match(mutant['tests'], test):
                    declared.update(reqs)
            self.assertTrue(declared, '%s names no test' % name)
            for rid in mutant['requirements']:
                self.assertIn(rid, declared, '%s: none of its tests checks '
                              '%s' % (name, rid))

    def test_kill_matrix(self):
        some = sorted(nova_mutant.MUTANTS)[0]
        rid = nova_mutant.MUTANTS[some]['requirements'][0]
        rows, ok = nova_mutant.kill_matrix({some: (False, 'not failed')})
        self.assertFalse(ok)
        self.assertIn((rid, some, 'NO: not failed'), rows)
        caught = {name: (True, 'caught') for name in nova_mutant.MUTANTS}
        rows, ok = nova_mutant.kill_matrix(caught)
        self.assertTrue(ok)
        self.assertIn((rid, some, 'yes'), rows)


class TestBatches(base.BaseTestCase):

    def test_every_mutant_in_one_batch(self):
        names = [name for batch in nova_mutant.BATCHES for name in batch]
        self.assertEqual(sorted(nova_mutant.MUTANTS), sorted(names))

    def test_batch_tests_are_disjoint(self):
        tests = test_ids()
        for batch in nova_mutant.BATCHES:
            seen = {}
            for name in batch:
                pattern = re.compile(nova_mutant.MUTANTS[name]['tests'])
                for test in tests:
                    if pattern.match(test):
                        self.assertNotIn(test, seen, '%s and %s share %s' % (
                            name, seen.get(test), test))
                        seen[test] = name

    def test_two_cell_mutants_have_batches_of_their_own(self):
        # A cloud of one cell skips a batch with a two-cell mutant whole:
        # no mutant a cloud of one cell can show may be in it.
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            nova_mutant.main(['list', '--two-cells'])
        two = set(out.getvalue().split())
        self.assertEqual({'cell0-rebuild-into-first-cell',
                          'quota-counts-first-cell-only',
                          'host-status-listing-first-cell-only',
                          'down-cell-listing-skips-cell',
                          'quota-count-fails-on-a-down-cell',
                          'scheduler-fails-on-a-down-cell'}, two)
        for batch in nova_mutant.BATCHES:
            if two & set(batch):
                self.assertLessEqual(set(batch), two, batch)

    def test_batch_needs_one_profile_at_most(self):
        for batch in nova_mutant.BATCHES:
            self.assertLessEqual(len({
                nova_mutant.MUTANTS[name]['profile'] for name in batch
                if nova_mutant.MUTANTS[name].get('profile')}), 1, batch)
            self.assertIn(nova_mutant.batch_profile(batch),
                          project_config.POLICY_PROFILES)

    def test_batch_edits_do_not_overlap(self):
        # Without the tree: texts of one file in one batch share no line.
        for batch in nova_mutant.BATCHES:
            for i, first in enumerate(batch):
                for second in batch[i + 1:]:
                    one = nova_mutant.MUTANTS[first]
                    two = nova_mutant.MUTANTS[second]
                    if one['file'] != two['file']:
                        continue
                    common = set(one['old'].splitlines()).intersection(
                        two['old'].splitlines()) - {''}
                    self.assertEqual(set(), common, '%s and %s' % (
                        first, second))


class TestVerdict(base.BaseTestCase):

    NAME = 'rebuild-drops-tags'
    TEST = ('pending_tempest_plugin.tests.api.compute.test_cell0_rebuild.'
            'Cell0RebuildTest.test_rebuild_keeps_attributes[id-x]')

    def test_caught(self):
        message = nova_mutant.MUTANTS[self.NAME]['message']
        results = {self.TEST: ('fail', 'AssertionError: ' + message),
                   'other.test': ('success', '')}
        self.assertEqual((True, 'caught'),
                         nova_mutant.verdict(self.NAME, results))

    def test_message_split_by_pprint(self):
        message = nova_mutant.MUTANTS[self.NAME]['message']
        for split in ("['%s'\n '%s']", '["%s"\n "%s"]'):
            results = {self.TEST: ('fail', split % (message[:10],
                                                    message[10:]))}
            self.assertTrue(nova_mutant.verdict(self.NAME, results)[0])

    def test_passed_or_other_failure_or_not_run(self):
        self.assertEqual(
            (False, 'not failed: test_rebuild_keeps_attributes[id-x] '
                    '(success)'),
            nova_mutant.verdict(self.NAME, {self.TEST: ('success', '')}))
        caught, why = nova_mutant.verdict(
            self.NAME, {self.TEST: ('fail', 'NoValidHost')})
        self.assertFalse(caught)
        self.assertIn('failed without saying', why)
        self.assertEqual((False, 'none of its tests ran'),
                         nova_mutant.verdict(self.NAME, {}))

    def test_a_message_per_test(self):
        name = 'cell0-rebuild-drops-server-group'
        prefix = ('pending_tempest_plugin.tests.api.compute.'
                  'test_cell0_rebuild.')
        anti = prefix + ('Cell0RebuildServerGroupTest.'
                         'test_rebuild_honours_anti_affinity[id-x]')
        affinity = prefix + ('Cell0RebuildAffinityTest.'
                             'test_rebuild_honours_affinity[id-y]')
        messages = nova_mutant.MUTANTS[name]['message']
        both = {anti: ('fail', messages['test_rebuild_honours_anti_'
                                        'affinity']),
                affinity: ('fail', messages['test_rebuild_honours_'
                                            'affinity'])}
        self.assertEqual((True, 'caught'), nova_mutant.verdict(name, both))
        # The affinity test failing for another reason: not caught, though
        # the other test's text would hold a common phrase.
        other = dict(both, **{affinity: ('fail', 'Host of the member '
                                                 'created with a same_host '
                                                 'hint')})
        caught, why = nova_mutant.verdict(name, other)
        self.assertFalse(caught)
        self.assertIn('test_rebuild_honours_affinity failed without saying',
                      why)


class TestApplyRestore(base.BaseTestCase):

    def setUp(self):
        super().setUp()
        self.aio = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.aio)
        self.useFixture(fixtures.EnvironmentVariable('AIO_DIR', self.aio))
        sp = os.path.join(self.aio, 'venvs', 'openstack', 'lib',
                          'python3.11', 'site-packages')
        os.makedirs(os.path.join(sp, 'nova', 'compute', '__pycache__'))
        self.target = os.path.join(sp, 'nova', 'compute', 'api.py')
        self.original = 'x = 1\n' + DEFS._COPY_LOOP + 'y = 2\n'
        with open(self.target, 'w') as f:
            f.write(self.original)
        self.useFixture(fixtures.MockPatch('builtins.print', autospec=True))
        self.restart = self.useFixture(fixtures.MockPatchObject(
            nova_mutant, 'restart')).mock

    def read(self):
        with open(self.target) as f:
            return f.read()

    def test_apply_then_restore_is_byte_for_byte(self):
        nova_mutant.cmd_apply('rebuild-drops-data-volumes')
        self.assertIn('b.boot_index == 0', self.read())
        self.restart.assert_called_once_with(['nova-api'])
        nova_mutant.cmd_restore()
        self.assertEqual(self.original, self.read())
        self.assertIsNone(nova_mutant.applied())

    def test_batch_in_one_file_then_restore(self):
        self.original = ''.join(['x = 1\n', DEFS._COPY_LOOP,
                                 DEFS._HOST_STATUS_LOOP])
        with open(self.target, 'w') as f:
            f.write(self.original)
        nova_mutant.cmd_apply(['rebuild-drops-data-volumes',
                               'host-status-first-server-only'])
        text = self.read()
        self.assertIn('b.boot_index == 0', text)
        self.assertIn('            return host_statuses\n', text)
        self.restart.assert_called_once_with(['nova-api'])
        nova_mutant.cmd_restore()
        self.assertEqual(self.original, self.read())

    def test_overlapping_edits_refused(self):
        exc = self.assertRaises(
            SystemExit, nova_mutant.cmd_apply,
            ['rebuild-drops-data-volumes', 'rebuild-image-root-not-a-volume'])
        self.assertIn('change the same lines', str(exc))
        self.assertEqual(self.original, self.read())

    def test_one_mutant_at_a_time(self):
        nova_mutant.cmd_apply('rebuild-drops-data-volumes')
        exc = self.assertRaises(SystemExit, nova_mutant.cmd_apply,
                                'rebuild-image-root-not-a-volume')
        self.assertIn('rebuild-drops-data-volumes is applied', str(exc))

    def test_text_not_found_refuses(self):
        exc = self.assertRaises(SystemExit, nova_mutant.cmd_apply,
                                'rebuild-drops-tags')
        self.assertIn('occurs 0 times', str(exc))
        self.assertIn('update the mutant', str(exc))
        self.assertEqual(self.original, self.read())

    def test_unknown_mutant(self):
        exc = self.assertRaises(SystemExit, nova_mutant.cmd_apply, 'nope')
        self.assertIn("no mutant 'nope'", str(exc))


class TestComputesUp(base.BaseTestCase):

    def _answer(self, services, returncode=0):
        return self.useFixture(fixtures.MockPatchObject(
            nova_mutant.subprocess, 'run', return_value=subprocess
            .CompletedProcess([], returncode, json.dumps(services)))).mock

    def test_up_after_the_restart(self):
        since = datetime.datetime(2026, 11, 23, 23, 50, 30)
        self._answer([{'State': 'up', 'Updated At': '2026-11-23T23:50:37'},
                      {'State': 'up', 'Updated At': '2026-11-23T23:50:31'}])
        self.assertTrue(nova_mutant.computes_up(since))

    def test_stale_heartbeat_or_down_is_not_up(self):
        since = datetime.datetime(2026, 11, 23, 23, 50, 30)
        self._answer([{'State': 'up', 'Updated At': '2026-11-23T23:50:37'},
                      {'State': 'up', 'Updated At': '2026-11-23T23:50:20'}])
        self.assertFalse(nova_mutant.computes_up(since))
        self._answer([{'State': 'down', 'Updated At': '2026-11-23T23:51'}])
        self.assertFalse(nova_mutant.computes_up(since))
        self._answer([])
        self.assertFalse(nova_mutant.computes_up(since))
        self._answer([], returncode=1)
        self.assertFalse(nova_mutant.computes_up(since))


class TestNovaApis(base.BaseTestCase):

    def test_every_nova_api_of_the_programs(self):
        # A mutant of nova-api restarts the profile endpoints' nova-api
        # too, and waits for each on its own port; not a control plane's
        # (it has a nova-conductor of its own): no mutant batch uses it.
        tmp = self.useFixture(fixtures.TempDir()).path
        conf = os.path.join(tmp, 'services.conf')
        with open(conf, 'w') as f:
            f.write('[program:nova-api]\ncommand=/g -b 127.0.0.1:8774 -w 2 '
                    'nova_app:application\n\n'
                    '[program:nova-api-unknown_only]\ncommand=/g -k gthread '
                    '-b 127.0.0.1:8791 -w 1 nova_unknown_only_app:a\n\n'
                    '[program:nova-conductor]\ncommand=/n -b x\n\n'
                    '[program:nova-api-pending-off]\ncommand=/g -k gthread '
                    '-b 127.0.0.1:8792 -w 1 nova_pending_off_app:a\n\n'
                    '[program:nova-conductor-pending-off]\ncommand=/n\n')
        self.assertEqual(
            {'nova-api': 'http://127.0.0.1:8774/',
             'nova-api-unknown_only': 'http://127.0.0.1:8791/'},
            nova_mutant.nova_apis(conf))
        self.assertEqual({'nova-api': 'http://127.0.0.1:8774/'},
                         nova_mutant.nova_apis(os.path.join(tmp, 'none')))
