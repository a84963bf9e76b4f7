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
"""Nova's notifications, read from the bus the operator gives.

``[nova_conformance] notification_transport_url`` names the bus.  A
:class:`Listener` is an oslo.messaging notification listener on
``notification_topic`` (the versioned notifications) and, where
``legacy_notifications`` is claimed, ``legacy_notification_topic`` (the
unversioned ones), with a *pool* of its own (one queue named after the
run's resource prefix): the broker gives that queue a copy of every
notification, so the listener never takes a message from the cloud's own
consumers (ceilometer, searchlight...).  The queue is removed when the
listener stops.  The transport URL is secret: no message of this module
shows it, only the host and port it connects to.

The pure functions (payload fields, descriptions) are unit tested in
``unit_tests/test_notifications.py``.
"""

import collections
import threading

from oslo_log import log as logging

LOG = logging.getLogger(__name__)

# Every event type stock nova 34.0.0 emits as a versioned notification: the
# "event_type" of each file of its doc/notification_samples/ (132 files,
# the same event types with and without the reference series: the series
# adds one sample, compute_task-build_instances-pending.json, of the
# existing compute_task.build_instances.error).  Nova's functional tests
# (nova/tests/functional/notification_sample_tests) require a sample for
# every versioned notification object, so the samples are the list.
STOCK_EVENT_TYPES = frozenset("""
aggregate.add_host.end aggregate.add_host.start
aggregate.cache_images.end aggregate.cache_images.progress
aggregate.cache_images.start aggregate.create.end aggregate.create.start
aggregate.delete.end aggregate.delete.start aggregate.remove_host.end
aggregate.remove_host.start aggregate.update_metadata.end
aggregate.update_metadata.start aggregate.update_prop.end
aggregate.update_prop.start compute.exception
compute_task.build_instances.error compute_task.migrate_server.error
compute_task.rebuild_server.error flavor.create flavor.delete flavor.update
instance.create.end instance.create.error instance.create.start
instance.delete.end instance.delete.start instance.evacuate instance.exists
instance.interface_attach.end instance.interface_attach.error
instance.interface_attach.start instance.interface_detach.end
instance.interface_detach.start instance.live_migration_abort.end
instance.live_migration_abort.start
instance.live_migration_force_complete.end
instance.live_migration_force_complete.start
instance.live_migration_post.end instance.live_migration_post.start
instance.live_migration_post_dest.end
instance.live_migration_post_dest.start instance.live_migration_pre.end
instance.live_migration_pre.start instance.live_migration_rollback.end
instance.live_migration_rollback.start
instance.live_migration_rollback_dest.end
instance.live_migration_rollback_dest.start instance.lock
instance.pause.end instance.pause.start instance.power_off.end
instance.power_off.start instance.power_on.end instance.power_on.start
instance.reboot.end instance.reboot.error instance.reboot.start
instance.rebuild.end instance.rebuild.error instance.rebuild.start
instance.rebuild_scheduled instance.rescue.end instance.rescue.start
instance.resize.end instance.resize.error instance.resize.start
instance.resize_confirm.end instance.resize_confirm.start
instance.resize_finish.end instance.resize_finish.start
instance.resize_prep.end instance.resize_prep.start
instance.resize_revert.end instance.resize_revert.start
instance.restore.end instance.restore.start instance.resume.end
instance.resume.start instance.share_attach.end instance.share_attach.error
instance.share_attach.start instance.share_detach.end
instance.share_detach.error instance.share_detach.start
instance.shelve.end instance.shelve.start instance.shelve_offload.end
instance.shelve_offload.start instance.shutdown.end instance.shutdown.start
instance.snapshot.end instance.snapshot.start instance.soft_delete.end
instance.soft_delete.start instance.suspend.end instance.suspend.start
instance.trigger_crash_dump.end instance.trigger_crash_dump.start
instance.unlock instance.unpause.end instance.unpause.start
instance.unrescue.end instance.unrescue.start instance.unshelve.end
instance.unshelve.start instance.update instance.volume_attach.end
instance.volume_attach.error instance.volume_attach.start
instance.volume_detach.end instance.volume_detach.start
instance.volume_swap.end instance.volume_swap.error
instance.volume_swap.start keypair.create.end keypair.create.start
keypair.delete.end keypair.delete.start keypair.import.end
keypair.import.start libvirt.connect.error metrics.update
scheduler.select_destinations.end scheduler.select_destinations.start
server_group.add_member server_group.create server_group.delete
service.create service.delete service.update volume.usage
""".split())

# oslo.messaging calls the endpoint method named after the priority.
PRIORITIES = ('audit', 'critical', 'debug', 'error', 'info', 'sample', 'warn')

Notification = collections.namedtuple(
    'Notification', ['event_type', 'priority', 'publisher_id', 'payload'])


def data(obj):
    """The fields of a serialized nova object (``nova_object.data``)."""
    if isinstance(obj, dict):
        return obj.get('nova_object.data', obj)
    return {}


def field(notification, *path):
    """A field of the payload, following ``path`` through nested objects.

    None when a step is missing.
    """
    value = notification.payload
    for name in path:
        value = data(value).get(name)
        if value is None:
            return None
    return value


def is_legacy(notification):
    """Whether it is an unversioned (legacy) notification.

    A versioned notification's payload is a serialized nova object
    (``nova_object.data``); a legacy one's is a plain dictionary.
    """
    payload = notification.payload
    return not (isinstance(payload, dict) and 'nova_object.data' in payload)


def instance_uuid(notification):
    """The server a notification is about, or None.

    ``uuid`` of the instance payloads, ``instance_uuid`` of
    ComputeTaskPayload and RequestSpecPayload; ``instance_id`` of the
    legacy ``compute.instance.*`` and ``compute_task.*`` payloads.
    """
    fields = data(notification.payload)
    found = fields.get('instance_uuid') or fields.get('uuid')
    if found is None and is_legacy(notification):
        found = fields.get('instance_id')
    return found


# oslo.messaging re-raises an exception of another service (the
# scheduler's NoValidHost, in the conductor) as a class of this name.
REMOTE_SUFFIX = '_Remote'


def exception_name(notification):
    """``reason.exception`` of an error payload, without ``_Remote``."""
    name = field(notification, 'reason', 'exception')
    if isinstance(name, str) and name.endswith(REMOTE_SUFFIX):
        return name[:-len(REMOTE_SUFFIX)]
    return name


def describe(notification):
    """One line: event type, priority, and the states it carries."""
    parts = []
    state = field(notification, 'state')
    if state is not None:
        parts.append('state %s' % state)
    update = data(field(notification, 'state_update'))
    if update:
        parts.append('state_update %s -> %s' % (update.get('old_state'),
                                                update.get('state')))
    reason = field(notification, 'reason', 'exception')
    if reason:
        parts.append('reason %s' % reason)
    return '%s (%s%s)' % (notification.event_type, notification.priority,
                          ''.join(', ' + p for p in parts))


def describe_all(notifications):
    if not notifications:
        return 'none'
    return '; '.join(describe(n) for n in notifications)


class Collector(object):
    """An oslo.messaging notification endpoint that keeps every message."""

    def __init__(self):
        self._lock = threading.Lock()
        self._received = []

    def _keep(self, priority, publisher_id, event_type, payload):
        with self._lock:
            self._received.append(Notification(
                event_type, priority, publisher_id, payload))

    def __getattr__(self, name):
        if name not in PRIORITIES:
            raise AttributeError(name)

        def endpoint(ctxt, publisher_id, event_type, payload, metadata):
            self._keep(name, publisher_id, event_type, payload)
        return endpoint

    def count(self):
        """How many notifications were received so far (a mark)."""
        with self._lock:
            return len(self._received)

    def about(self, server_id, since=0, legacy=False):
        """The notifications about ``server_id`` received after ``since``.

        The versioned ones, or with ``legacy`` the unversioned ones.
        """
        with self._lock:
            received = list(self._received[since:])
        return [n for n in received if instance_uuid(n) == server_id
                and is_legacy(n) == legacy]


def _endpoint_where(url):
    """``host:port`` of the first host of a parsed TransportURL."""
    hosts = ['%s:%s' % (h.hostname, h.port or '') for h in url.hosts]
    return ','.join(hosts) or '(no host)'


class ListenerError(Exception):
    """The listener cannot start; the message never shows the URL."""


class Listener(object):
    """A notification listener on a pool queue of its own.

    :param transport_url: the oslo.messaging transport URL (secret).
    :param topic: nova's versioned notification topic.
    :param exchange: nova's control exchange.
    :param pool: the name of the listener's queue (unique per run and
                 class, prefixed with the run's resource prefix).
    :param legacy_topic: nova's unversioned notification topic, also
                         listened to (the same queue), or None.
    """

    def __init__(self, transport_url, topic, exchange, pool,
                 legacy_topic=None):
        self._url = transport_url
        self.topic = topic
        self.legacy_topic = legacy_topic
        self.exchange = exchange
        self.pool = pool
        self.collector = Collector()
        self._transport = None
        self._listener = None
        self._parsed = None

    def start(self):
        from oslo_config import cfg
        import oslo_messaging

        # A configuration of its own: Tempest's CONF never holds the URL
        # of the bus nor oslo.messaging's options.
        conf = cfg.ConfigOpts()
        conf([], project='pending-tempest-plugin-notifications',
             default_config_files=[], default_config_dirs=[])
        try:
            self._parsed = oslo_messaging.TransportURL.parse(conf, self._url)
        except Exception as e:
            raise ListenerError('[nova_conformance] '
                                'notification_transport_url is not a '
                                'transport URL (%s)' % type(e).__name__)
        where = _endpoint_where(self._parsed)
        self._check_reachable(where)
        try:
            self._transport = oslo_messaging.get_notification_transport(
                conf, url=self._url)
            self._listener = oslo_messaging.get_notification_listener(
                self._transport,
                [oslo_messaging.Target(topic=topic, exchange=self.exchange)
                 for topic in self.topics()],
                [self.collector], executor='threading', pool=self.pool)
            self._listener.start()
        except Exception as e:
            self.stop()
            raise ListenerError(
                'cannot listen to nova\'s notifications on %s (topics %s, '
                'exchange %s): %s' % (where, ', '.join(self.topics()),
                                      self.exchange, type(e).__name__))
        LOG.info('Listening to notifications on %s, topics %s, queue %s',
                 where, ', '.join(self.topics()), self.pool)

    def topics(self):
        """The topics listened to: the versioned one, the legacy one."""
        return [self.topic] + ([self.legacy_topic] if self.legacy_topic
                               else [])

    def _kombu_connection(self):
        import kombu

        host = self._parsed.hosts[0]
        return kombu.Connection(
            hostname=host.hostname, port=host.port or 5672,
            userid=host.username, password=host.password,
            virtual_host=self._parsed.virtual_host or '/',
            connect_timeout=10)

    def _rabbit(self):
        return (self._parsed is not None and self._parsed.hosts
                and (self._parsed.transport or 'rabbit') == 'rabbit')

    def _check_reachable(self, where):
        """Fail at once (not retry for ever) when the bus is not there."""
        if not self._rabbit():
            return
        try:
            with self._kombu_connection() as conn:
                conn.ensure_connection(max_retries=2)
        except Exception as e:
            raise ListenerError(
                'cannot connect to the message bus of [nova_conformance] '
                'notification_transport_url (%s): %s' % (
                    where, type(e).__name__))

    def stop(self):
        """Stop listening and remove the pool queue (idempotent)."""
        listener, self._listener = self._listener, None
        if listener is not None:
            try:
                listener.stop()
                listener.wait()
            except Exception:
                LOG.exception('Stopping the notification listener failed')
        transport, self._transport = self._transport, None
        if transport is not None:
            transport.cleanup()
            self._delete_queue()

    def _delete_queue(self):
        if not self._rabbit():
            LOG.warning('Not a RabbitMQ transport: queue %s of the '
                        'notification listener is left to the broker',
                        self.pool)
            return
        try:
            with self._kombu_connection() as conn:
                conn.default_channel.queue_delete(self.pool)
        except Exception as e:
            LOG.warning('Could not delete queue %s of the notification '
                        'listener: %s', self.pool, type(e).__name__)
