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
"""The nova mutants (tools/nova_mutant.py) without a cloud."""

import datetime
import json
import os
import re
import shutil
import subprocess
import tempfile

import fixtures
from oslotest import base

from pending_tempest_plugin import config as project_config
from pending_tempest_plugin.conformance import catalogue
from pending_tempest_plugin.unit_tests import fakes

nova_mutant = fakes.load_module('nova_mutant', 'tools', 'nova_mutant.py')


class TestMutants(base.BaseTestCase):

    def test_each_mutant_is_well_formed(self):
        known = catalogue.load().by_id
        for name, mutant in nova_mutant.MUTANTS.items():
            self.assertNotEqual(mutant['old'], mutant['new'], name)
            self.assertIn(mutant['requirement'], known, name)
            self.assertTrue(mutant['tests'].startswith(
                '^pending_tempest_plugin\\.tests\\.'), name)
            re.compile(mutant['tests'])
            self.assertTrue(mutant['file'].startswith('nova/'), name)
            self.assertTrue(mutant['programs'], name)
            self.assertIn(mutant.get('profile', 'admin_only'),
                          project_config.POLICY_PROFILES, name)


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
        self.original = 'x = 1\n' + nova_mutant._COPY_LOOP + 'y = 2\n'
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
