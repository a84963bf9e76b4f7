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
"""Nova's versioned notifications of PENDING and of the cell0 rebuild.

They run where the operator gives the suite the notification bus:
``[nova_conformance] notification_transport_url`` (secret); otherwise they
skip naming it.  The class listens on a queue of its own
(``common/notifications.py``) from its setup to its cleanup and reads only
the notifications about the servers its tests boot.  Nova sends
``instance.update`` only with ``[notifications] notify_on_state_change``
set, and versioned notifications only with ``[notifications]
notification_format`` ``versioned`` or ``both``.
"""

import time

from tempest import config
from tempest.lib.common.utils import data_utils
from tempest.lib import decorators

from pending_tempest_plugin.common import checks
from pending_tempest_plugin.common import features
from pending_tempest_plugin.common import markers
from pending_tempest_plugin.common import notifications
from pending_tempest_plugin.common import polling
from pending_tempest_plugin.common import waiters
from pending_tempest_plugin.tests import cell0_base

CONF = config.CONF

INSTANCE_UPDATE = 'instance.update'
BUILD_ERROR = 'compute_task.build_instances.error'
SELECT_END = 'scheduler.select_destinations.end'

# After an outcome the API shows: the notifications still on their way
# (instance.create.end follows the state change) are waited for until the
# last one expected came and none other for QUIET_AFTER_LAST seconds,
# SETTLE seconds at most.
QUIET_AFTER_LAST = 2
SETTLE = 60
# Seconds the bus has to deliver a notification of a state already seen.
DELIVERY = 30


def _is_error(notification):
    """The last notification of a burial: an error (its compute task's)."""
    return notification.priority == 'error'


def _is_create_end(notification):
    """The last notification of a build."""
    return notification.event_type == 'instance.create.end'


class NotificationsBase(cell0_base.Cell0Test):
    """The listener and what the notification tests share; no test."""

    required_features = (features.notifications,)

    listener = None

    @classmethod
    def resource_setup(cls):
        super(NotificationsBase, cls).resource_setup()
        group = CONF.nova_conformance
        cls.listener = notifications.Listener(
            group.notification_transport_url, group.notification_topic,
            group.notification_exchange,
            data_utils.rand_name(name='notifications',
                                 prefix=CONF.resource_name_prefix),
            legacy_topic=(group.legacy_notification_topic
                          if group.legacy_notifications else None))
        cls.listener.start()
        cls.addClassResourceCleanup(cls.listener.stop)

    def about(self, server_id, since=0, legacy=False):
        return self.listener.collector.about(server_id, since, legacy)

    @staticmethod
    def formats():
        """The notification formats the cloud is claimed to send."""
        return ((False, True) if CONF.nova_conformance.legacy_notifications
                else (False,))

    def wait_notification(self, server_id, expected, match):
        # Nova sends these when it saves the state, before the API can
        # show it: once the test saw the state, the bus has DELIVERY
        # seconds to bring them, not a whole build timeout.
        return waiters.wait_for_notification(
            lambda: self.about(server_id), match, server_id, expected,
            notifications.describe_all, timeout=DELIVERY)

    def settled(self, server_id, since, last):
        """The versioned notifications about the server since ``since``.

        Returned once ``last(notification)`` is true of one of them (the
        last one expected came) and none came, in any format the cloud
        sends, for QUIET_AFTER_LAST seconds; after SETTLE seconds they are
        returned as they are.
        """
        changed = {'count': -1, 'at': time.monotonic()}

        def fetch():
            """(how many, seconds since that number last changed)."""
            count = sum(len(self.about(server_id, since, legacy=each))
                        for each in self.formats())
            if count != changed['count']:
                changed['count'], changed['at'] = count, time.monotonic()
            return count, time.monotonic() - changed['at']

        def done(value):
            return value[1] >= QUIET_AFTER_LAST and any(
                last(n) for n in self.about(server_id, since))

        try:
            polling.poll(fetch, done, SETTLE, 0.5,
                         what='notifications about server %s' % server_id,
                         describe=lambda value: '%d seen' % value[0])
        except polling.PollTimeout:
            pass   # still arriving after SETTLE seconds: judged as they are
        return self.about(server_id, since)


class NotificationsTest(NotificationsBase):
    """The notifications of a server going PENDING."""

    required_features = (features.notifications,
                         features.pending_enabled)

    def _pending_server(self):
        return self.bury(self.novalidhost_trigger())

    @decorators.idempotent_id('c3fe1743-cf38-4b75-bb7f-eb0a91adb658')
    @markers.requirements('PEND-11')
    def test_pending_sends_instance_update(self):
        """NoValidHost -> PENDING sends a versioned instance.update.

        Its payload is the server's, in state ``pending``, and its
        ``state_update`` records the change to ``pending`` (from another
        vm_state).
        """
        server = self._pending_server()

        def to_pending(n):
            update = notifications.data(
                notifications.field(n, 'state_update'))
            return (n.event_type == INSTANCE_UPDATE
                    and notifications.field(n, 'state') == 'pending'
                    and update.get('state') == 'pending'
                    and update.get('old_state') not in (None, 'pending'))

        self.wait_notification(
            server['id'], '%s in state pending with a state_update from '
            'another vm_state to pending' % INSTANCE_UPDATE, to_pending)

    @decorators.idempotent_id('a8abc684-8c42-4d6e-9f9c-99206f1bbdee')
    @markers.requirements('PEND-12')
    def test_build_outcome_notified(self):
        """The build's outcome reaches the bus: NoValidHost, PENDING.

        The conductor's versioned ``compute_task.build_instances.error``
        (priority error) names the server, the state ``pending``, the
        reason NoValidHost (its exception and message) and the server's
        request spec (its instance UUID and the flavor it asked for); no
        ``scheduler.select_destinations.end`` claims the scheduler found it
        a destination.  (Nova sends no
        ``select_destinations`` notification at all when placement has no
        candidate, the suite's trigger: see the note of PEND-12.)
        """
        trigger = self.novalidhost_trigger()
        server = self.bury(trigger)
        error = self.wait_notification(
            server['id'], BUILD_ERROR,
            lambda n: n.event_type == BUILD_ERROR)
        problems = []
        expected = {'priority': 'error', 'state': 'pending',
                    'reason.exception': 'NoValidHost',
                    'request_spec.instance_uuid': server['id'],
                    'request_spec.flavor.flavorid': trigger.flavor['id']}
        actual = {'priority': error.priority,
                  'state': notifications.field(error, 'state'),
                  'reason.exception': notifications.exception_name(error),
                  'request_spec.instance_uuid': notifications.field(
                      error, 'request_spec', 'instance_uuid'),
                  'request_spec.flavor.flavorid': notifications.field(
                      error, 'request_spec', 'flavor', 'flavorid')}
        problems.extend(checks.differences(expected, actual,
                                           BUILD_ERROR + ' '))
        message = notifications.field(error, 'reason', 'exception_message')
        if checks.NOVALIDHOST_FAULT_MESSAGE.lower() not in str(
                message).lower():
            problems.append('%s reason.exception_message: expected it to '
                            'say %r, got %r' % (
                                BUILD_ERROR,
                                checks.NOVALIDHOST_FAULT_MESSAGE,
                                message))
        ends = [n for n in self.about(server['id'])
                if n.event_type == SELECT_END]
        if ends:
            problems.append('%s about server %s: expected none (no '
                            'destination was selected), got %s' % (
                                SELECT_END, server['id'],
                                notifications.describe_all(ends)))
        self.assertEqual([], problems, 'Notifications about server %s: %s'
                         % (server['id'], notifications.describe_all(
                             self.about(server['id']))))


class NotificationsRebuildTest(NotificationsBase):
    """The notifications of a cell0 rebuild."""

    required_features = (features.notifications,
                         features.cell0_rebuild)

    @decorators.idempotent_id('d73362c2-ffb8-4b2f-b350-a93e2b27c965')
    @markers.requirements('RB-15')
    def test_cell0_rebuild_no_new_notifications(self):
        """A cell0 rebuild sends only event types stock nova 34.0.0 has.

        It is notified as a build (instance.create.start and .end), not
        as a compute rebuild (no instance.rebuild.*).  The versioned
        notifications about the server from the rebuild request until it
        is ACTIVE and ``instance.create.end`` came (and quiet) are compared
        with ``notifications.STOCK_EVENT_TYPES``; at least one must be
        seen (else the bus tells nothing and the check would be empty).
        """
        trigger = self.novalidhost_trigger()
        server = self.bury(trigger)
        trigger.add_capacity()
        mark = self.listener.collector.count()
        self.rebuild_to_active(server['id'])
        seen = self.settled(server['id'], mark, _is_create_end)
        if not seen:
            self.fail('No versioned notification about server %s during '
                      'its cell0 rebuild: is nova sending versioned '
                      'notifications (notification_format versioned or '
                      'both) to the bus of [nova_conformance] '
                      'notification_transport_url?' % server['id'])
        types = set(n.event_type for n in seen)
        build = {'instance.create.start', 'instance.create.end'}
        rebuild = sorted(t for t in types if t.startswith('instance.rebuild'))
        if not build <= types or rebuild:
            self.fail('The cell0 rebuild of server %s: expected it notified '
                      'as a build (%s), not as a compute rebuild (no '
                      'instance.rebuild.*), got %s' % (
                          server['id'], ' and '.join(sorted(build)),
                          notifications.describe_all(seen)))
        new = sorted(types - notifications.STOCK_EVENT_TYPES)
        if new:
            self.fail('The cell0 rebuild of server %s introduced '
                      'notification event types stock nova 34.0.0 does not '
                      'emit: %s (seen during the rebuild: %s)' % (
                          server['id'], ', '.join(new),
                          notifications.describe_all(seen)))

    def _record(self, server_id, since, outcomes, name, last):
        """Record what was notified about the server since ``since``.

        ``outcomes[name]`` becomes {legacy: [notifications]} once the
        versioned notification ``last`` expects came and the
        notifications are quiet, for every format the cloud sends.
        """
        self.settled(server_id, since, last)
        outcomes[name] = {legacy: self.about(server_id, since, legacy)
                          for legacy in self.formats()}

    @staticmethod
    def _types(seen):
        return sorted(set(n.event_type for n in seen))

    def _error_problems(self, seen, name, state, novalidhost):
        """How the build_instances error of a burial differs from ``state``.

        :param novalidhost: True: its reason is NoValidHost; False: it is
                            not (the quota's).
        """
        errors = [n for n in seen if n.event_type == BUILD_ERROR]
        if not errors:
            return []   # the event types' comparison names it
        error = errors[-1]
        reason = notifications.exception_name(error)
        problems = []
        if notifications.field(error, 'state') != state:
            problems.append('%s: %s state: expected %r, got %r' % (
                name, BUILD_ERROR, state,
                notifications.field(error, 'state')))
        if (reason == 'NoValidHost') != novalidhost:
            problems.append('%s: %s reason: expected %s, got %r' % (
                name, BUILD_ERROR, 'NoValidHost' if novalidhost else
                'the quota\'s exception (not NoValidHost)', reason))
        return problems

    @decorators.idempotent_id('6e42f5b8-6450-420d-904b-23a91dab4266')
    @markers.requirements('RB-48')
    def test_each_outcome_notified_as_stock_nova(self):
        """Each outcome of a cell0 rebuild is notified as stock nova's.

        One server through every outcome, each watched until its
        notifications are quiet, in every format the cloud sends
        (versioned; unversioned too where ``legacy_notifications`` is
        claimed): its first burial (NoValidHost), a rebuild without
        capacity (buried again), a rebuild the quota refuses (the owner's
        cores one short of what its other servers and this one need), and
        a rebuild that succeeds; and a server created on the same cloud
        by the same test meanwhile.  Each re-burial sends exactly the
        event types of the first burial, its
        ``compute_task.build_instances.error`` naming the state and the
        reason (NoValidHost, or the quota's); the success exactly those of
        the create.  Each is watched until its last expected notification
        (an error, ``instance.create.end``) came and no other for
        QUIET_AFTER_LAST seconds.
        """
        others = self.others_usage('cores')
        trigger = self.novalidhost_trigger()
        outcomes = {}
        burial, built = _is_error, _is_create_end
        # The create is the reference of the success: booted first, it
        # builds while the other server goes through its burials.
        created_mark = self.listener.collector.count()
        created = self.boot(CONF.compute.flavor_ref)
        mark = self.listener.collector.count()
        server = self.bury(trigger)
        server_id = server['id']
        self._record(server_id, mark, outcomes, 'first burial', burial)

        mark = self.listener.collector.count()
        self.rebuild(server_id)
        self.wait_status(server_id, waiters.TERMINAL)
        self._record(server_id, mark, outcomes, 'burial again', burial)

        # The quota counts the created server once it is built.
        self.wait_status(created['id'], 'ACTIVE')
        others += self.need(created['id'], 'cores')
        trigger.add_capacity()
        cores = self.need(server_id, 'cores')
        restore = self.set_quota(cores=others + cores - 1)
        mark = self.listener.collector.count()
        self.rebuild(server_id)
        body = self.wait_status(server_id, waiters.TERMINAL | {'ACTIVE'})
        if body['status'] != 'ERROR' or body.get('OS-EXT-SRV-ATTR:host'):
            self.fail('Server %s rebuilt with the cores quota at %d (other '
                      'servers %d, this one %d): expected the quota to '
                      'refuse it (ERROR, no host), got %s on host %r' % (
                          server_id, others + cores - 1, others, cores,
                          waiters.describe(body),
                          body.get('OS-EXT-SRV-ATTR:host')))
        self._record(server_id, mark, outcomes, 'quota refusal', burial)
        restore()

        mark = self.listener.collector.count()
        self.rebuild_to_active(server_id)
        self._record(server_id, mark, outcomes, 'success', built)
        self._record(created['id'], created_mark, outcomes, 'create', built)

        problems = []
        for legacy in self.formats():
            kind = 'unversioned' if legacy else 'versioned'
            seen = {name: outcome[legacy]
                    for name, outcome in outcomes.items()}
            empty = sorted(name for name in ('first burial', 'create')
                           if not seen[name])
            if empty:
                problems.append(
                    'no %s notification about the server of the %s: %s' % (
                        kind, ' nor of the '.join(empty),
                        'is nova sending them to the topic %s of [nova_'
                        'conformance] notification_transport_url (claim '
                        'legacy_notifications)?' % (
                            CONF.nova_conformance.legacy_notification_topic)
                        if legacy else 'is nova sending versioned ones?'))
                continue
            for name, like in (('burial again', 'first burial'),
                               ('quota refusal', 'first burial'),
                               ('success', 'create')):
                if self._types(seen[name]) != self._types(seen[like]):
                    problems.append(
                        '%s event types of the %s: expected those of the '
                        '%s, %s, got %s (%s)' % (
                            kind, name, like, self._types(seen[like]),
                            self._types(seen[name]),
                            notifications.describe_all(seen[name])))
            if not legacy:
                problems.extend(self._error_problems(
                    seen['burial again'], 'burial again',
                    self.expected_buried()[1], True))
                problems.extend(self._error_problems(
                    seen['quota refusal'], 'quota refusal', 'error', False))
        self.assertEqual([], problems, 'Notifications of server %s (a cell0 '
                         'rebuild) and of server %s (a create)' % (
                             server_id, created['id']))
