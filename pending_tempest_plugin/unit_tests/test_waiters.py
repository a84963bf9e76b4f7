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
"""The waiter that treats PENDING and ERROR as terminal."""

from unittest import mock

import fixtures
from oslotest import base
from tempest.lib import exceptions as lib_exc

from pending_tempest_plugin.common import polling
from pending_tempest_plugin.common import waiters
from pending_tempest_plugin.unit_tests import fakes

SERVER_ID = 'c2b6f8d6-4b0f-4a8c-9a34-3f7f3c1d0001'


def server(status, vm_state=None, task_state=None, **extra):
    body = {'id': SERVER_ID, 'status': status,
            'OS-EXT-STS:vm_state': vm_state or status.lower(),
            'OS-EXT-STS:task_state': task_state}
    body.update(extra)
    return {'server': body}


class WaiterTestCase(base.BaseTestCase):
    """A fake clock, a mocked client; compute bounds 30/2, volume 20/1."""

    def setUp(self):
        super().setUp()
        self.clock = self.useFixture(fakes.FakeClock(polling))
        self.conf = self.useFixture(
            fixtures.MockPatchObject(waiters, 'CONF')).mock
        self.conf.compute.build_timeout = 30
        self.conf.compute.build_interval = 2
        self.conf.volume.build_timeout = 20
        self.conf.volume.build_interval = 1
        self.conf.nova_conformance.poll_interval = None
        self.client = mock.Mock()


class TestWaitForServerStatus(WaiterTestCase):

    def wait(self, responses, expected, **kwargs):
        self.client.show_server.side_effect = responses
        return waiters.wait_for_server_status(self.client, SERVER_ID,
                                              expected, **kwargs)

    def test_reaches_active(self):
        body = self.wait([server('BUILD', 'building', 'scheduling'),
                          server('BUILD', 'building', 'spawning'),
                          server('ACTIVE')], 'ACTIVE')
        self.assertEqual('ACTIVE', body['status'])
        self.assertEqual([2, 2], self.clock.sleeps)
        self.client.show_server.assert_called_with(SERVER_ID)

    def test_active_with_task_state_is_not_final(self):
        body = self.wait([server('ACTIVE', task_state='rebuild_spawning'),
                          server('ACTIVE')], 'ACTIVE')
        self.assertIsNone(body['OS-EXT-STS:task_state'])
        self.assertEqual(1, len(self.clock.sleeps))

    def test_pending_is_terminal_when_waiting_for_active(self):
        fault = {'code': 500, 'message': 'No valid host was found. '}
        e = self.assertRaises(
            waiters.UnexpectedServerState, self.wait,
            [server('BUILD', 'building', 'scheduling'),
             server('PENDING', fault=fault)], 'ACTIVE')
        self.assertIn('reached terminal state PENDING (vm_state pending, '
                      'task_state None) while waiting for ACTIVE; fault: No '
                      'valid host was found.', str(e))
        self.assertIn(SERVER_ID, str(e))
        self.assertEqual(1, len(self.clock.sleeps))

    def test_error_is_terminal(self):
        e = self.assertRaises(waiters.UnexpectedServerState, self.wait,
                              [server('ERROR')], 'ACTIVE')
        self.assertIn('terminal state ERROR', str(e))
        self.assertNotIn('fault', str(e))

    def test_waiting_for_pending(self):
        body = self.wait([server('BUILD', 'building', 'scheduling'),
                          server('PENDING')], 'PENDING')
        self.assertEqual('pending', body['OS-EXT-STS:vm_state'])

    def test_any_of_several_statuses(self):
        body = self.wait([server('ERROR', task_state='rebuilding')],
                         {'PENDING', 'ERROR'})
        self.assertEqual('ERROR', body['status'])

    def test_custom_terminal_set(self):
        body = self.wait([server('PENDING'), server('ACTIVE')], 'ACTIVE',
                         terminal={'ERROR'})
        self.assertEqual('ACTIVE', body['status'])

    def test_timeout_uses_build_timeout_and_names_states(self):
        self.client.show_server.return_value = server(
            'BUILD', 'building', 'scheduling')
        e = self.assertRaises(waiters.ServerStateTimeout,
                              waiters.wait_for_server_status, self.client,
                              SERVER_ID, {'ACTIVE', 'PENDING'})
        self.assertIn('did not reach ACTIVE/PENDING within 30 s; last '
                      'state: BUILD (vm_state building, task_state '
                      'scheduling)', str(e))
        self.assertEqual(30, sum(self.clock.sleeps))

    def test_explicit_timeout_and_interval(self):
        self.client.show_server.return_value = server('BUILD')
        self.assertRaises(waiters.ServerStateTimeout,
                          waiters.wait_for_server_status, self.client,
                          SERVER_ID, 'ACTIVE', timeout=5, interval=1)
        self.assertEqual([1] * 5, self.clock.sleeps)

    def test_poll_interval_replaces_build_interval(self):
        self.conf.nova_conformance.poll_interval = 0.5
        self.client.show_server.return_value = server('BUILD')
        self.assertRaises(waiters.ServerStateTimeout,
                          waiters.wait_for_server_status, self.client,
                          SERVER_ID, 'ACTIVE', timeout=2)
        self.assertEqual([0.5] * 4, self.clock.sleeps)

    def test_poll_interval_for_volumes_too(self):
        self.conf.nova_conformance.poll_interval = 0.25
        self.client.show_volume.side_effect = [
            {'volume': {'status': 'creating'}},
            {'volume': {'status': 'available', 'id': 'v'}}]
        waiters.wait_for_volume_status(self.client, 'v', 'available')
        self.assertEqual([0.25], self.clock.sleeps)

    def test_non_admin_body_without_extended_status(self):
        body = {'server': {'id': SERVER_ID, 'status': 'ACTIVE'}}
        self.assertEqual('ACTIVE', self.wait([body], 'ACTIVE')['status'])


class TestWaitForDeletionAndVolumes(WaiterTestCase):

    def test_server_deletion_ends_at_404(self):
        self.client.show_server.side_effect = [
            server('ACTIVE', task_state='deleting'),
            server('ERROR', task_state='deleting'),
            lib_exc.NotFound()]
        waiters.wait_for_server_deletion(self.client, SERVER_ID)
        self.assertEqual([2, 2], self.clock.sleeps)

    def test_server_deletion_times_out_naming_the_state(self):
        self.client.show_server.return_value = server('ACTIVE')
        exc = self.assertRaises(
            waiters.ServerDeletionTimeout, waiters.wait_for_server_deletion,
            self.client, SERVER_ID)
        self.assertIn('ACTIVE (vm_state active', str(exc))
        self.assertEqual(30, sum(self.clock.sleeps))

    def test_volume_reaches_available(self):
        self.client.show_volume.side_effect = [
            {'volume': {'status': 'creating'}},
            {'volume': {'status': 'downloading'}},
            {'volume': {'status': 'available', 'id': 'v'}}]
        body = waiters.wait_for_volume_status(self.client, 'v', 'available')
        self.assertEqual('v', body['id'])
        self.assertEqual([1, 1], self.clock.sleeps)

    def test_volume_error_ends_the_wait(self):
        self.client.show_volume.return_value = {
            'volume': {'status': 'error_deleting'}}
        exc = self.assertRaises(
            waiters.UnexpectedVolumeState, waiters.wait_for_volume_status,
            self.client, 'v', ('available', 'in-use'))
        self.assertIn('error_deleting while waiting for available/in-use',
                      str(exc))
        self.assertEqual([], self.clock.sleeps)

    def test_volume_timeout_uses_volume_bounds(self):
        self.client.show_volume.return_value = {
            'volume': {'status': 'detaching'}}
        exc = self.assertRaises(
            waiters.VolumeStateTimeout, waiters.wait_for_volume_status,
            self.client, 'v', 'available')
        self.assertIn('within 20 s; last status: detaching', str(exc))
        self.assertEqual(20, sum(self.clock.sleeps))

    def test_volume_deletion(self):
        self.client.show_volume.side_effect = [
            {'volume': {'status': 'deleting'}}, lib_exc.NotFound()]
        waiters.wait_for_volume_deletion(self.client, 'v')
        self.assertEqual([1], self.clock.sleeps)


class TestWaitForNotification(WaiterTestCase):

    def wait(self):
        seen = [[], [], ['other', 'wanted']]
        return waiters.wait_for_notification(
            lambda: seen.pop(0), lambda n: n == 'wanted', SERVER_ID,
            'wanted', str)

    def test_polls_every_second_by_default(self):
        # Not build_interval: the notifications are already in this
        # process, a poll costs no request.
        self.assertEqual('wanted', self.wait())
        self.assertEqual([1, 1], self.clock.sleeps)

    def test_polls_every_poll_interval(self):
        self.conf.nova_conformance.poll_interval = 0.5
        self.assertEqual('wanted', self.wait())
        self.assertEqual([0.5, 0.5], self.clock.sleeps)
