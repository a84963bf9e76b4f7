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
"""The notification collector and payload helpers (no bus needed)."""

import testtools

from pending_tempest_plugin.common import notifications
from pending_tempest_plugin.common import waiters
from pending_tempest_plugin import config as project_config

SERVER = '2b1c4a0e-8a4f-4b6e-9d7e-0f5c3b2a1d90'
OTHER = '7f0e9d8c-6b5a-4c3d-8e2f-1a0b9c8d7e6f'


def _obj(name, **fields):
    return {'nova_object.name': name, 'nova_object.namespace': 'nova',
            'nova_object.version': '1.0', 'nova_object.data': fields}


def _update(uuid, old, new):
    return _obj('InstanceUpdatePayload', uuid=uuid, state=new,
                state_update=_obj('InstanceStateUpdatePayload',
                                  old_state=old, state=new,
                                  old_task_state=None,
                                  new_task_state=None))


def _task_error(uuid, state, exc):
    return _obj('ComputeTaskPayload', instance_uuid=uuid, state=state,
                reason=_obj('ExceptionPayload', exception=exc))


class TestCollector(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.collector = notifications.Collector()
        self.collector.info({}, 'nova-conductor:h', 'instance.update',
                            _update(SERVER, 'building', 'pending'), {})
        self.collector.info({}, 'nova-conductor:h', 'instance.update',
                            _update(OTHER, 'building', 'active'), {})
        self.collector.error({}, 'nova-conductor:h',
                             'compute_task.build_instances.error',
                             _task_error(SERVER, 'pending', 'NoValidHost'),
                             {})

    def test_about_filters_by_server_and_mark(self):
        about = self.collector.about(SERVER)
        self.assertEqual(['instance.update',
                          'compute_task.build_instances.error'],
                         [n.event_type for n in about])
        self.assertEqual(['info', 'error'], [n.priority for n in about])
        self.assertEqual(3, self.collector.count())
        self.assertEqual(['compute_task.build_instances.error'],
                         [n.event_type
                          for n in self.collector.about(SERVER, since=2)])

    def test_legacy_notifications_apart(self):
        # Unversioned payloads are plain dictionaries naming the server
        # by instance_id; about() keeps them apart from the versioned.
        self.collector.error({}, 'conductor.h', 'compute_task.build_instances',
                             {'instance_id': SERVER, 'state': 'pending',
                              'reason': 'No valid host was found.'}, {})
        self.collector.info({}, 'compute.h', 'compute.instance.update',
                            {'instance_id': OTHER, 'state': 'active'}, {})
        legacy = self.collector.about(SERVER, legacy=True)
        self.assertEqual(['compute_task.build_instances'],
                         [n.event_type for n in legacy])
        self.assertTrue(notifications.is_legacy(legacy[0]))
        self.assertEqual('pending', notifications.field(legacy[0], 'state'))
        self.assertEqual(['instance.update',
                          'compute_task.build_instances.error'],
                         [n.event_type for n in self.collector.about(SERVER)])
        self.assertFalse(any(notifications.is_legacy(n)
                             for n in self.collector.about(SERVER)))

    def test_versioned_payload_instance_id_is_not_the_server(self):
        # Only a legacy payload names its server by instance_id.
        self.collector.info({}, 'h', 'instance.update',
                            _obj('InstanceUpdatePayload',
                                 instance_id=SERVER), {})
        self.assertEqual(2, len(self.collector.about(SERVER)))

    def test_unknown_priority_is_not_an_endpoint(self):
        self.assertRaises(AttributeError, getattr, self.collector, 'bogus')

    def test_fields_and_description(self):
        update, error = self.collector.about(SERVER)
        self.assertEqual('pending', notifications.field(update, 'state'))
        self.assertEqual('building', notifications.field(
            update, 'state_update', 'old_state'))
        self.assertEqual('NoValidHost', notifications.field(
            error, 'reason', 'exception'))
        self.assertIsNone(notifications.field(error, 'nothing', 'here'))
        self.assertEqual('NoValidHost', notifications.exception_name(error))
        remote = error._replace(payload=_task_error(
            SERVER, 'pending', 'NoValidHost_Remote'))
        self.assertEqual('NoValidHost', notifications.exception_name(remote))
        self.assertIsNone(notifications.exception_name(update))
        self.assertEqual(
            'instance.update (info, state pending, state_update building '
            '-> pending); compute_task.build_instances.error (error, state '
            'pending, reason NoValidHost)',
            notifications.describe_all([update, error]))
        self.assertEqual('none', notifications.describe_all([]))

    def test_wait_for_notification_names_what_it_saw(self):
        exc = self.assertRaises(
            waiters.NotificationTimeout, waiters.wait_for_notification,
            lambda: self.collector.about(SERVER),
            lambda n: n.event_type == 'instance.delete.end', SERVER,
            'instance.delete.end', notifications.describe_all, timeout=0,
            interval=0)
        self.assertIn('No versioned notification instance.delete.end', str(
            exc))
        self.assertIn('instance.update (info, state pending', str(exc))
        found = waiters.wait_for_notification(
            lambda: self.collector.about(SERVER),
            lambda n: n.priority == 'error', SERVER, 'an error',
            notifications.describe_all, timeout=0, interval=0)
        self.assertEqual('compute_task.build_instances.error',
                         found.event_type)


class TestStockEventTypes(testtools.TestCase):

    def test_the_samples_of_nova_34(self):
        types = notifications.STOCK_EVENT_TYPES
        self.assertEqual(132, len(types))
        for event_type in ('instance.update',
                           'compute_task.build_instances.error',
                           'scheduler.select_destinations.start',
                           'instance.create.end'):
            self.assertIn(event_type, types)
        self.assertNotIn('scheduler.select_destinations.error', types)


class TestOption(testtools.TestCase):

    def test_transport_url_is_secret_and_topic_is_novas(self):
        opts = {o.dest: o for o in project_config.NovaConformanceGroup}
        self.assertTrue(opts['notification_transport_url'].secret)
        self.assertIsNone(opts['notification_transport_url'].default)
        self.assertEqual('versioned_notifications',
                         opts['notification_topic'].default)
        self.assertEqual('nova', opts['notification_exchange'].default)

    def test_legacy_notifications_off_unless_claimed(self):
        opts = {o.dest: o for o in project_config.NovaConformanceGroup}
        self.assertFalse(opts['legacy_notifications'].default)
        self.assertEqual('notifications',
                         opts['legacy_notification_topic'].default)


class TestListenerTopics(testtools.TestCase):

    def test_legacy_topic_listened_to_when_given(self):
        versioned = notifications.Listener('rabbit://h/', 'versioned', 'nova',
                                           'pool')
        both = notifications.Listener('rabbit://h/', 'versioned', 'nova',
                                      'pool', legacy_topic='notifications')
        self.assertEqual(['versioned'], versioned.topics())
        self.assertEqual(['versioned', 'notifications'], both.topics())
