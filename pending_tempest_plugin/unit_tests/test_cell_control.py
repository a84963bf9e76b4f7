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
"""Cell control: a cell taken down is started again and waited for."""

import subprocess

import fixtures
from oslotest import base
from tempest.lib import exceptions as lib_exc

from pending_tempest_plugin.common import cell_control
from pending_tempest_plugin.common import host_control
from pending_tempest_plugin.common import polling
from pending_tempest_plugin.common import waiters
from pending_tempest_plugin.unit_tests import fakes


class FakeCell(object):
    """os-services of the computes of one cell, listed while it is up."""

    def __init__(self, hosts):
        self.hosts = hosts
        self.up = True
        self.commands = []

    def list_services(self, binary, host):
        if not self.up or host not in self.hosts:
            return {'services': []}
        return {'services': [{'id': host, 'binary': binary, 'host': host,
                              'status': 'enabled', 'forced_down': False,
                              'state': 'up'}]}

    def runner(self, command, **kwargs):
        self.commands.append(command)
        self.up = 'start' in command
        return subprocess.CompletedProcess(command, 0, '', '')


class TestCellControl(base.BaseTestCase):

    def setUp(self):
        super().setUp()
        self.conf = self.useFixture(
            fixtures.MockPatchObject(cell_control, 'CONF')).mock
        self.useFixture(fixtures.MockPatchObject(host_control, 'CONF',
                                                 self.conf))
        self.useFixture(fixtures.MockPatchObject(waiters, 'CONF', self.conf))
        group = self.conf.nova_conformance
        group.disruptive_cells = ['cell2']
        group.cell_stop_command = 'supervisorctl stop mariadb-{cell}'
        group.cell_start_command = 'supervisorctl start mariadb-{cell}'
        group.compute_command_timeout = 60
        group.service_state_timeout = 100
        group.poll_interval = None
        self.conf.compute.build_interval = 5
        self.clock = self.useFixture(fakes.FakeClock(polling))
        self.test = fakes.CleanupRecorder()
        self.cell = FakeCell(['cn2'])
        self.control = cell_control.CellControl(self.test, self.cell,
                                                runner=self.cell.runner)

    def test_stop_registers_the_restore_first(self):
        self.control.stop('cell2', ['cn2'])
        self.assertEqual([['supervisorctl', 'stop', 'mariadb-cell2']],
                         self.cell.commands)
        self.assertFalse(self.cell.up)
        self.assertEqual(1, len(self.test.cleanups))
        self.test.run_cleanups()
        self.assertEqual(['supervisorctl', 'start', 'mariadb-cell2'],
                         self.cell.commands[-1])
        self.assertTrue(self.cell.up)

    def test_unlisted_cell_refused_before_any_command(self):
        e = self.assertRaises(lib_exc.InvalidConfiguration,
                              self.control.stop, 'cell1', ['cn1'])
        self.assertIn('disruptive_cells lists only cell2', str(e))
        self.assertEqual([], self.cell.commands)
        self.assertEqual([], self.test.cleanups)

    def test_restore_waits_until_the_computes_are_listed_up(self):
        self.control.stop('cell2', ['cn2'])
        listed = []

        def late_start(command, **kwargs):
            # The database answers only after two polls.
            self.cell.commands.append(command)
            listed.append(0)
            return subprocess.CompletedProcess(command, 0, '', '')
        self.control._host_control.runner = late_start
        real = self.cell.list_services

        def list_services(binary, host):
            listed.append(1)
            if len(listed) > 3:
                self.cell.up = True
            return real(binary, host)
        self.cell.list_services = list_services
        self.test.run_cleanups()
        self.assertTrue(self.cell.up)
        self.assertGreater(len(listed), 3)

    def test_restore_times_out_naming_the_cell(self):
        self.control.stop('cell2', ['cn2'])
        self.control._host_control.runner = lambda command, **kw: (
            subprocess.CompletedProcess(command, 0, '', ''))
        e = self.assertRaises(cell_control.CellStateTimeout,
                              self.control.restore, 'cell2', ['cn2'])
        self.assertIn('cell cell2', str(e))
        self.assertIn('cn2', str(e))

    def test_a_failed_stop_command_still_starts_the_cell(self):
        def failing(command, **kwargs):
            self.cell.commands.append(command)
            if 'stop' in command:
                self.cell.up = False   # stopped half way, then failed
                return subprocess.CompletedProcess(command, 1, '', 'boom')
            self.cell.up = True
            return subprocess.CompletedProcess(command, 0, '', '')
        self.control._host_control.runner = failing
        self.assertRaises(host_control.CommandFailed, self.control.stop,
                          'cell2', ['cn2'])
        self.assertEqual(1, len(self.test.cleanups))
        self.test.run_cleanups()
        self.assertEqual(['supervisorctl', 'start', 'mariadb-cell2'],
                         self.cell.commands[-1])
        self.assertTrue(self.cell.up)

    def test_a_cell_not_up_is_not_taken_down(self):
        self.cell.up = False
        self.assertRaises(cell_control.CellStateTimeout, self.control.stop,
                          'cell2', ['cn2'])
        self.assertEqual([], self.cell.commands)
        self.assertEqual([], self.test.cleanups)

    def test_an_unset_command_is_a_configuration_error(self):
        self.conf.nova_conformance.cell_stop_command = None
        e = self.assertRaises(lib_exc.InvalidConfiguration,
                              self.control.stop, 'cell2', ['cn2'])
        self.assertIn('cell_stop_command is not set', str(e))
        self.assertEqual([], self.cell.commands)
