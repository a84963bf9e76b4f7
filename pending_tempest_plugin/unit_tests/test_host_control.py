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
"""Host control: every change is undone and waited for."""

import subprocess
from unittest import mock

import fixtures
from oslotest import base
from tempest.lib import exceptions as lib_exc
from tempest.lib.services.compute import base_compute_client

from pending_tempest_plugin.common import host_control
from pending_tempest_plugin.common import polling
from pending_tempest_plugin.common import waiters
from pending_tempest_plugin.unit_tests import fakes


class FakeServices(object):
    """os-services of one compute host, as nova reports it at 2.53."""

    def __init__(self, host='compute1', **state):
        self.host = host
        self.service = {'id': 'svc-uuid', 'binary': 'nova-compute',
                        'host': host, 'status': 'enabled',
                        'forced_down': False, 'state': 'up',
                        'disabled_reason': None}
        self.service.update(state)
        self.running = self.service['state'] == 'up'
        self.updates = []
        self.microversions = set()

    def list_services(self, binary, host):
        self.microversions.add(base_compute_client.COMPUTE_MICROVERSION)
        svc = dict(self.service)
        svc['state'] = ('up' if self.running and not svc['forced_down']
                        else 'down')
        return {'services': [svc] if host == self.host else []}

    def update_service(self, service_id, **changes):
        self.microversions.add(base_compute_client.COMPUTE_MICROVERSION)
        assert service_id == self.service['id']
        self.updates.append(changes)
        if changes.get('status') == 'enabled':
            self.service['disabled_reason'] = None
        self.service.update(changes)

    def runner(self, command, **kwargs):
        self.commands = getattr(self, 'commands', []) + [(command, kwargs)]
        self.running = 'start' in command
        return subprocess.CompletedProcess(command, 0, '', '')


class HostControlTestCase(base.BaseTestCase):

    def setUp(self):
        super().setUp()
        self.conf = self.useFixture(
            fixtures.MockPatchObject(host_control, 'CONF')).mock
        group = self.conf.nova_conformance
        group.disruptive_tests = True
        group.disruptive_hosts = ['compute1', 'compute9']
        group.compute_stop_command = 'supervisorctl stop nova-compute-{host}'
        group.compute_start_command = ('supervisorctl start '
                                       'nova-compute-{host}')
        group.compute_command_timeout = 60
        group.service_state_timeout = 100
        self.conf.compute.build_interval = 5
        group.poll_interval = None
        self.useFixture(fixtures.MockPatchObject(waiters, 'CONF', self.conf))
        self.clock = self.useFixture(fakes.FakeClock(polling))
        self.test = fakes.CleanupRecorder()
        self.services = FakeServices()
        self.control = host_control.HostControl(
            self.test, self.services, runner=self.services.runner)

    def assertOriginal(self, **extra):
        expected = {'status': 'enabled', 'forced_down': False,
                    'state': 'up'}
        expected.update(extra)
        self.assertEqual(expected, host_control._state(
            self.control.service('compute1')))


class TestChangesAndRestore(HostControlTestCase):

    def test_unlisted_host_refused_before_any_change(self):
        self.conf.nova_conformance.disruptive_hosts = ['compute9']
        for change in (self.control.disable, self.control.force_down,
                       self.control.stop, self.control.enable):
            e = self.assertRaises(lib_exc.InvalidConfiguration, change,
                                  'compute1')
            self.assertIn('refusing to change nova-compute on compute1',
                          str(e))
            self.assertIn('disruptive_hosts lists only compute9', str(e))
        self.assertEqual([], self.services.updates)
        self.assertFalse(hasattr(self.services, 'commands'))
        self.assertEqual([], self.test.cleanups)

    def test_disable_then_restore(self):
        body = self.control.disable('compute1')
        self.assertEqual('disabled', body['status'])
        self.assertEqual([{'status': 'disabled',
                           'disabled_reason': 'pending-tempest-plugin test'}],
                         self.services.updates)
        self.assertEqual(1, len(self.test.cleanups))
        self.test.run_cleanups()
        self.assertOriginal()
        self.assertEqual({'status': 'enabled'}, self.services.updates[-1])
        self.assertEqual({'2.53'}, self.services.microversions)
        self.assertIsNone(base_compute_client.COMPUTE_MICROVERSION)

    def test_force_down_then_restore(self):
        body = self.control.force_down('compute1')
        self.assertTrue(body['forced_down'])
        self.assertEqual('down', body['state'])
        self.test.run_cleanups()
        self.assertOriginal()
        self.assertEqual({'forced_down': False}, self.services.updates[-1])

    def test_disabled_and_forced_down_restore_both_once(self):
        self.control.force_down('compute1')
        self.control.disable('compute1')
        self.assertEqual(1, len(self.test.cleanups))
        self.test.run_cleanups()
        self.assertOriginal()
        self.assertEqual(4, len(self.services.updates))

    def test_stop_runs_the_template_and_start_restores(self):
        body = self.control.stop('compute1')
        self.assertEqual('down', body['state'])
        command, kwargs = self.services.commands[0]
        self.assertEqual(['supervisorctl', 'stop', 'nova-compute-compute1'],
                         command)
        self.assertEqual(60, kwargs['timeout'])
        self.test.run_cleanups()
        self.assertEqual(['supervisorctl', 'start', 'nova-compute-compute1'],
                         self.services.commands[-1][0])
        self.assertOriginal()
        self.assertEqual([], self.services.updates)

    def test_explicit_start_then_cleanup_does_not_start_again(self):
        self.control.stop('compute1')
        self.control.start('compute1')
        self.test.run_cleanups()
        self.assertEqual(2, len(self.services.commands))
        self.assertOriginal()

    def test_original_disabled_state_and_reason_come_back(self):
        self.services = FakeServices(status='disabled',
                                     disabled_reason='hardware repair')
        self.control = host_control.HostControl(self.test, self.services)
        self.control.enable('compute1')
        self.test.run_cleanups()
        self.assertEqual({'status': 'disabled',
                          'disabled_reason': 'hardware repair'},
                         self.services.updates[-1])
        self.assertOriginal(status='disabled')

    def test_force_up_of_a_forced_down_host_is_restored(self):
        self.services = FakeServices(forced_down=True)
        self.control = host_control.HostControl(self.test, self.services)
        self.control.force_up('compute1')
        self.test.run_cleanups()
        self.assertOriginal(forced_down=True, state='down')

    def test_restore_without_change_does_nothing(self):
        self.control.restore('compute1')
        self.assertEqual([], self.services.updates)


class TestFailures(HostControlTestCase):

    def test_unknown_host(self):
        e = self.assertRaises(lib_exc.InvalidConfiguration,
                              self.control.disable, 'compute9')
        self.assertIn('Expected one nova-compute service on host compute9',
                      str(e))

    def test_wait_timeout_names_expected_and_actual(self):
        self.services.update_service = mock.Mock()   # nova ignores us
        e = self.assertRaises(host_control.ServiceStateTimeout,
                              self.control.disable, 'compute1')
        self.assertIn("did not reach {'status': 'disabled'} within 100 s; "
                      "os-services reports {'status': 'enabled'", str(e))
        self.assertEqual(100, sum(self.clock.sleeps))
        self.assertEqual({5}, set(self.clock.sleeps))

    def test_waits_poll_every_poll_interval(self):
        self.conf.nova_conformance.poll_interval = 0.5
        self.services.update_service = mock.Mock()   # nova ignores us
        self.assertRaises(host_control.ServiceStateTimeout,
                          self.control.disable, 'compute1')
        self.assertEqual({0.5}, set(self.clock.sleeps))

    def test_failing_command(self):
        runner = mock.Mock(return_value=subprocess.CompletedProcess(
            [], 7, 'out', 'no such process'))
        control = host_control.HostControl(self.test, self.services,
                                           runner=runner)
        e = self.assertRaises(host_control.CommandFailed, control.stop,
                              'compute1')
        self.assertIn('supervisorctl stop nova-compute-compute1 exited 7',
                      str(e))
        self.assertIn('stderr: no such process', str(e))
        # The restore was registered before the command ran.
        self.assertEqual(1, len(self.test.cleanups))

    def test_failing_start_still_restores_os_services(self):
        self.control.stop('compute1')
        self.control.force_down('compute1')
        self.services.runner = mock.Mock(
            return_value=subprocess.CompletedProcess([], 1, '', 'busy'))
        self.control.runner = self.services.runner
        e = self.assertRaises(host_control.CommandFailed,
                              self.test.run_cleanups)
        self.assertIn('supervisorctl start nova-compute-compute1 exited 1',
                      str(e))
        self.assertEqual({'forced_down': False}, self.services.updates[-1])

    def test_command_timeout(self):
        runner = mock.Mock(side_effect=subprocess.TimeoutExpired(
            ['x'], 60, output='', stderr='hung'))
        control = host_control.HostControl(self.test, self.services,
                                           runner=runner)
        e = self.assertRaises(host_control.CommandFailed, control.stop,
                              'compute1')
        self.assertIn('timed out after 60 s', str(e))

    def test_unset_command(self):
        self.conf.nova_conformance.compute_stop_command = None
        e = self.assertRaises(lib_exc.InvalidConfiguration,
                              self.control.stop, 'compute1')
        self.assertIn('compute_stop_command is not set', str(e))
