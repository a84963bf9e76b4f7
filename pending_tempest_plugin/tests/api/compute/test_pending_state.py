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
"""The PENDING state (*Introduce Pending VM state*, the Train text).

NoValidHost comes from the reversible trait trigger (a private flavor
requiring a trait no provider has).  The PENDING tests run when
``[nova_conformance] pending_state_enabled = True``; the option-off test
runs when it is False.  Interpretations cited: interpretation.rst anchors
``interp-old-microversions``, ``interp-status-filter``,
``interp-pending-delete``, ``interp-pending-reset-state``.
"""

from tempest import config
from tempest.lib.common.utils import test_utils
from tempest.lib import decorators
from tempest.lib import exceptions as lib_exc

from pending_tempest_plugin.common import checks
from pending_tempest_plugin.common import features
from pending_tempest_plugin.common import markers
from pending_tempest_plugin.common import microversions
from pending_tempest_plugin.common import pending_actions
from pending_tempest_plugin.common import waiters
from pending_tempest_plugin.tests import cell0_base

CONF = config.CONF

PENDING = ('PENDING', 'pending')
ERROR = ('ERROR', 'error')


class PendingStateBase(cell0_base.Cell0Test):
    """What the PENDING classes share; it has no test."""

    def returned(self, server, personas, versions, problems):
        """(persona, version, where, label, body) of each view of ``server``.

        Show and detail, for each persona at each version; a view that
        does not return the server adds a problem instead.
        """
        for version in versions:
            for persona in personas:
                shown, listed = self.view(persona, server, version)
                for where, body in (('show', shown), ('detail', listed)):
                    label = '%s (%s at %s): ' % (persona, where, version)
                    if body is None:
                        problems.append(label + 'server not returned')
                    else:
                        yield persona, version, where, label, body


class PendingStateTest(PendingStateBase):
    """use_pending_state on: NoValidHost gives PENDING."""

    required_features = (features.pending_enabled,)

    def _pending_server(self):
        trigger = self.novalidhost_trigger()
        return self.bury(trigger)

    @decorators.idempotent_id('d8ccdb8e-2c2c-4e41-99af-04e1c50ed7c4')
    @markers.requirements('PEND-02', 'PEND-04', 'PEND-05', 'PEND-07',
                          'PEND-17')
    def test_pending_show_and_detail(self):
        """NoValidHost -> PENDING / pending, no task state, progress 0.

        Admin and the owner, in show and in detail, at the PENDING
        microversion; the instance action records the failed scheduling.
        """
        server = self._pending_server()
        problems = []
        for persona, _, _, label, body in self.returned(
                server, ('admin', 'owner_member'), [self.pending_mv],
                problems):
            problems.extend(checks.differences(
                {'status': 'PENDING'}, body, label))
            if persona == 'admin':
                problems.extend(checks.differences(
                    {'OS-EXT-STS:vm_state': 'pending',
                     'OS-EXT-STS:task_state': None}, body, label))
            if 'progress' not in body:
                problems.append(label + 'progress: expected a value '
                                '(PENDING is a progress status), got '
                                'no progress key')
        actions, events = self.instance_events(server['id'], 'create')
        failed = [e for e in events
                  if e['event'] == checks.SCHEDULE_EVENT]
        if not failed or failed[0].get('result') != 'Error':
            problems.append(
                'instance action create: expected a failed event %s, got '
                'actions %s with events %s' % (
                    checks.SCHEDULE_EVENT, actions,
                    [(e['event'], e.get('result')) for e in events]))
        self.assertEqual([], problems)

    @decorators.idempotent_id('6acfa0ec-b003-4caf-b22e-323039a0d042')
    @markers.requirements('PEND-18')
    def test_pending_server_shows_fault(self):
        """A PENDING server says why it waits: its NoValidHost fault.

        At the PENDING microversion, admin and the owner, in show and in
        detail: ``fault`` with the code, time and message of the
        NoValidHost, the very fault each of them gets below the
        microversion, where the server reads ERROR.
        """
        server = self._pending_server()
        older = microversions.previous_microversion(self.pending_mv)
        problems = []
        faults = {}
        for persona, version, where, label, body in self.returned(
                server, ('admin', 'owner_member'),
                [v for v in (self.pending_mv, older) if v], problems):
            faults[(persona, where, version)] = body.get('fault')
            if version == self.pending_mv:
                problems.extend(checks.fault_problems(
                    body.get('fault'), label))
        for (persona, where, version), below in sorted(faults.items()):
            here = faults.get((persona, where, self.pending_mv))
            if version == older and below is not None and here != below:
                problems.append(
                    '%s (%s): fault at %s %r differs from the fault of the '
                    'ERROR server at %s %r' % (persona, where,
                                               self.pending_mv, here, older,
                                               below))
        self.assertEqual([], problems)

    @decorators.idempotent_id('617ed3ac-108c-45d0-b99e-a574348ec4e9')
    @markers.requirements('PEND-06')
    def test_pending_is_error_below_microversion(self):
        """Below the PENDING microversion: ERROR / error, show and detail."""
        older = microversions.previous_microversion(self.pending_mv)
        versions = microversions.versions_to_check(
            ['2.1', older], CONF.compute.min_microversion,
            CONF.compute.max_microversion)
        if not versions:
            raise self.skipException(
                '[compute] min_microversion %s leaves no microversion below '
                'the PENDING one (%s) to check' % (
                    CONF.compute.min_microversion, self.pending_mv))
        server = self._pending_server()
        problems = []
        for persona, _, _, label, body in self.returned(
                server, ('admin', 'owner_member'), versions, problems):
            expected = {'status': 'ERROR'}
            if persona == 'admin':
                expected['OS-EXT-STS:vm_state'] = 'error'
                expected['OS-EXT-STS:task_state'] = None
            problems.extend(checks.differences(expected, body, label))
        self.assertEqual([], problems)

    def _listed(self, version, status):
        """IDs the owner lists with ``status``, or the error it gets."""
        with self.at(version):
            try:
                servers = self.owner_servers.list_servers(
                    status=status)['servers']
            except lib_exc.BadRequest:
                return '400'
        return set(s['id'] for s in servers)

    @decorators.idempotent_id('89eeaf13-dd88-44b1-bc67-792fa373b604')
    @markers.requirements('PEND-14')
    def test_status_filter(self):
        """status=PENDING / status=ERROR at and below the PENDING version.

        At it: PENDING finds the server, ERROR does not.  Below it: ERROR
        finds it; PENDING is an unknown status (400 from 2.38, an empty
        list before) -- interp-status-filter.
        """
        server = self._pending_server()
        sid = server['id']
        older = microversions.previous_microversion(self.pending_mv)
        problems = []

        def check(version, status, want):
            got = self._listed(version, status)
            ok = (got == want) if want == '400' else (
                isinstance(got, set) and (sid in got) == want)
            if not ok:
                problems.append(
                    'GET /servers?status=%s at %s: expected %s, got %s' % (
                        status, version,
                        '400 Bad Request' if want == '400' else
                        ('the server listed' if want else
                         'the server not listed'),
                        '400 Bad Request' if got == '400' else
                        ('the server listed' if sid in got else
                         'the server not listed')))

        check(self.pending_mv, 'PENDING', True)
        check(self.pending_mv, 'ERROR', False)
        if older:
            check(older, 'ERROR', True)
            if microversions.at_least(
                    older, microversions.STATUS_FILTER_400_MICROVERSION):
                check(older, 'PENDING', '400')
            else:
                check(older, 'PENDING', False)
        self.assertEqual([], problems)

    @decorators.idempotent_id('5609a789-c5b7-4cc5-932c-c30fb2af98be')
    @markers.requirements('PEND-08', 'PEND-15')
    def test_owner_deletes_pending_server(self):
        """The owner deletes a PENDING server; quota usage is as before."""
        trigger = self.novalidhost_trigger()
        before = dict((r, self.usage(r)[1])
                      for r in ('instances', 'cores', 'ram'))
        server = self.bury(trigger)
        self.owner_servers.delete_server(server['id'])
        waiters.wait_for_server_deletion(self.admin_servers, server['id'])
        after = dict((r, self.usage(r)[1]) for r in before)
        self.assertEqual(before, after,
                         'Quota usage (in_use) of the owner project: expected '
                         '%s as before the PENDING server, got %s after '
                         'deleting it' % (before, after))
        self.assertEqual([], self.leftovers(server['id']))

    @decorators.idempotent_id('da66f190-1877-4d98-a8e6-ee0dbab65c03')
    @markers.requirements('PEND-09')
    def test_reset_state_pending_to_error(self):
        """Admin os-resetState error: PENDING -> ERROR / error."""
        server = self._pending_server()
        self.admin_servers.reset_state(server['id'], state='error')
        body = self.show(server['id'], self.pending_mv)
        self.assert_state(body, ERROR, 'after os-resetState error at %s'
                          % self.pending_mv)
        self.assertIsNone(body.get('OS-EXT-STS:task_state'))

    # -- every other action (interp-pending-actions) -------------------------

    def created_image(self, body):
        """Delete at cleanup an image an action was wrongly allowed to make."""
        image_id = body.get('image_id') or (
            body.response.get('location', '').rstrip('/').rsplit('/', 1)[-1])
        if image_id:
            self.addCleanup(test_utils.call_and_ignore_notfound_exc,
                            self.os_primary.image_client_v2.delete_image,
                            image_id)
        return body

    def _answer(self, call, persona, server_id):
        """(answer, detail) of one action: ALLOWED, 409, 404 or a status."""
        try:
            call(self, persona, server_id)
        except lib_exc.Conflict as e:
            return 409, str(e)
        except lib_exc.NotFound as e:
            return 404, str(e)
        except lib_exc.TempestException as e:
            status = getattr(getattr(e, 'resp', None), 'status', None)
            return status or type(e).__name__, str(e)
        return pending_actions.ALLOWED, ''

    @staticmethod
    def _unexpected(expected, got, detail):
        """Why (got, detail) is not the table's ``expected``, or None."""
        status = {pending_actions.ALLOWED: pending_actions.ALLOWED,
                  pending_actions.STATE: 409, pending_actions.NO_HOST: 409,
                  pending_actions.SAME_HOST: 400,
                  pending_actions.NO_PORTS: 404}[expected]
        ok = got == status and pending_actions.MESSAGES.get(
            expected, '') in detail
        if ok:
            return None
        return 'expected %s, got %s%s' % (
            pending_actions.ANSWERS[expected],
            '2xx' if got == pending_actions.ALLOWED else got,
            (': ' + ' '.join(detail.split())[:300]) if detail else '')

    @decorators.idempotent_id('950cb7ca-ed0d-436e-a7c8-c84c046fcced')
    @markers.requirements('PEND-20')
    def test_pending_server_actions(self):
        """Every server action answers a PENDING server as the table says.

        interp-pending-actions: each action of the table requested by the
        owner (admin for the admin actions) at the PENDING microversion:
        the allowed ones succeed, do what they do (lock, rename) and leave
        the server PENDING; the others answer 409 naming vm_state pending,
        or 409 saying the instance is not ready (no host), or 404 saying
        no port has the server as device (security groups), or 400 saying
        the target host can't be the same (evacuate); none answers 500,
        and the server is PENDING after all of them.
        """
        trigger = self.novalidhost_trigger()
        server = self.bury(trigger)
        sid = server['id']
        self.actions_flavor_id = trigger.flavor['id']
        self.addCleanup(self._unlocked, sid)
        # Nova makes the image of a snapshot, backup or shelve before it
        # casts to the compute: one wrongly allowed would leave it.
        self.addCleanup(self._delete_images_of, sid)
        problems = []
        for name, persona, _, expected, call in pending_actions.ACTIONS:
            if name in pending_actions.NEEDS_NETWORK and not self.network:
                continue
            with self.at(self.pending_mv):
                got, detail = self._answer(call, persona, sid)
            problem = self._unexpected(expected, got, detail)
            if problem:
                problems.append('%s (%s): %s' % (name, persona, problem))
            if expected == pending_actions.ALLOWED:
                body = self.show(sid, self.pending_mv)
                problems.extend(checks.differences(
                    dict(pending_actions.AFTER.get(name, {}),
                         status='PENDING'), body, '%s, afterwards: ' % name))
        body = self.show(sid, self.pending_mv)
        problems.extend(checks.differences(
            {'status': 'PENDING', 'OS-EXT-STS:vm_state': 'pending',
             'OS-EXT-STS:task_state': None, 'locked': False}, body,
            'after every action: '))
        self.assertEqual([], problems)

    def _delete_images_of(self, server_id):
        images = self.os_admin.image_client_v2
        for image in images.list_images(
                params={'instance_uuid': server_id})['images']:
            test_utils.call_and_ignore_notfound_exc(images.delete_image,
                                                    image['id'])

    def _unlocked(self, server_id):
        with self.at(self.pending_mv):
            test_utils.call_and_ignore_notfound_exc(
                self.owner_servers.unlock_server, server_id)


class PendingStateOffTest(PendingStateBase):
    """use_pending_state off: NoValidHost gives ERROR.

    Runs when [nova_conformance] pending_state_enabled = False.
    """

    required_features = (features.pending_disabled,)

    @decorators.idempotent_id('306aaba7-eccc-451e-bf22-803ffca34309')
    @markers.requirements('PEND-01')
    def test_option_off_error_at_every_microversion(self):
        """use_pending_state off: NoValidHost gives ERROR at every version.

        Runs when [nova_conformance] pending_state_enabled = False.
        """
        trigger = self.novalidhost_trigger()
        server = self.bury(trigger)
        problems = []
        versions = microversions.versions_to_check(
            ['2.1', '2.37', self.pending_mv, self.rebuild_mv,
             CONF.compute.max_microversion],
            CONF.compute.min_microversion, CONF.compute.max_microversion)
        for _, _, _, label, body in self.returned(server, ('admin',),
                                                  versions, problems):
            problems.extend(checks.differences(
                {'status': 'ERROR', 'OS-EXT-STS:vm_state': 'error'},
                body, label))
        self.assertEqual([], problems)
