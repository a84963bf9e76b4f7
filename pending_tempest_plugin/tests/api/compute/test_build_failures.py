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
"""Builds that fail on every host: a failure that is not a lack of capacity.

No API makes a hypervisor fail, so these tests need a cloud that declares
``[nova_conformance] build_failure_metadata``: server metadata its (test)
virt driver fails every build for.  nova reschedules the build to the
alternate hosts, each fails, and the conductor gives up with
MaxRetriesExceeded, which is a subclass of NoValidHost but not a lack of
capacity.  Interpretation cited: interpretation.rst anchor
``interp-pending-scope``.
"""

from tempest import config
from tempest.lib import decorators
from tempest.lib import exceptions as lib_exc

from pending_tempest_plugin.common import checks
from pending_tempest_plugin.common import features
from pending_tempest_plugin.common import markers
from pending_tempest_plugin.common import polling
from pending_tempest_plugin.common import waiters
from pending_tempest_plugin.tests import cell0_base

CONF = config.CONF

ERROR = ('ERROR', 'error')
# Every status a failed build can end in, right or wrong: a wrong one fails
# the test naming it instead of waiting for the build timeout.
_ENDS = frozenset(('ERROR', 'PENDING', 'ACTIVE'))
# Seconds an ERROR server has to show the fault nova records after the state.
FAULT_WAIT = 30
# The fault message of nova's MaxRetriesExceeded.
MAX_RETRIES_FAULT = 'Exceeded maximum number of retries'


class BuildFailureBase(cell0_base.Cell0Test):
    """A server whose build fails on every compute host; no test."""

    def _failed_build(self, version):
        """Boot with the failing metadata; return the server once it ends.

        An ERROR server is returned once it shows its fault too: nova saves
        the ERROR state first and records the fault just after, so the
        first ERROR body may lack it (FAULT_WAIT seconds at most).
        """
        key, value = CONF.nova_conformance.build_failure_metadata.split('=', 1)
        server = self.boot(CONF.compute.flavor_ref, metadata={key: value})
        with self.at(version):
            body = waiters.wait_for_server_status(
                self.admin_servers, server['id'], _ENDS, terminal=_ENDS)
            if body.get('status') != 'ERROR' or body.get('fault'):
                return body
            try:
                return polling.poll(
                    lambda: self.admin_servers.show_server(
                        server['id'])['server'],
                    lambda shown: shown.get('fault'), FAULT_WAIT,
                    waiters.poll_interval(),
                    what='fault of server %s' % server['id'],
                    describe=lambda shown: 'fault %s' % bool(
                        shown.get('fault')))
            except polling.PollTimeout as exc:
                return exc.value

    def assert_retries_exhausted(self, body):
        """The fault says the build retries were exhausted.

        nova's MaxRetriesExceeded: the build was rescheduled until no host
        was left, not aborted on the first host.
        """
        message = (body.get('fault') or {}).get('message') or ''
        self.assertIn(MAX_RETRIES_FAULT, message,
                      'Fault of server %s, whose build fails on every host: '
                      'expected nova\'s MaxRetriesExceeded (%r), got %r' % (
                          body['id'], MAX_RETRIES_FAULT, message))


class BuildFailureTest(BuildFailureBase):
    """use_pending_state on: such a build still ends in ERROR."""

    required_features = (features.pending_enabled_any_trigger,
                         features.build_failure)

    @decorators.idempotent_id('2f0c7d1e-7a59-4c4e-9f2b-5d3e8b6a1c04')
    @markers.requirements('PEND-03')
    def test_build_failure_is_error_not_pending(self):
        """use_pending_state on: a build failing everywhere reads ERROR.

        At the PENDING microversion, as admin and as the owner.
        """
        self.require_microversions(self.pending_mv)
        body = self._failed_build(self.pending_mv)
        self.assert_state(body, ERROR, 'after its build failed on every '
                          'host, as admin at %s' % self.pending_mv)
        self.assert_retries_exhausted(body)
        shown = self.show(body['id'], self.pending_mv,
                          client=self.owner_servers)
        if shown.get('status') != 'ERROR':
            self.fail('Server %s after its build failed on every host, as '
                      'the owner at %s: expected status ERROR, got %s'
                      % (body['id'], self.pending_mv, shown.get('status')))


class BuildFailureRebuildTest(BuildFailureBase):
    """Such a server is not one the cell0 rebuild takes."""

    required_features = (features.cell0_rebuild_microversion,
                         features.build_failure)

    @decorators.attr(type='negative')
    @decorators.idempotent_id('9b4e6a2c-3d1f-4f7e-8c5a-0e2d4b6f8a13')
    @markers.requirements('RB-12')
    def test_build_failure_not_rebuilt_from_cell0(self):
        """A server that exhausted its build retries is no cell0 server.

        At the cell0 rebuild microversion its rebuild is refused (409), and
        it stays as it was: ERROR, its fault, no rebuild action.
        """
        self.require_microversions(self.rebuild_mv)
        body = self._failed_build(self.rebuild_mv)
        self.assert_state(body, ERROR, 'after its build failed on every '
                          'host (at %s)' % self.rebuild_mv)
        self.assert_retries_exhausted(body)
        fault = (body.get('fault') or {}).get('message')
        with self.at(self.rebuild_mv):
            try:
                response = self.owner_servers.rebuild_server(
                    body['id'], CONF.compute.image_ref)
            except lib_exc.Conflict:
                response = None
        if response is not None:
            self.fail('Rebuild at %s of server %s, whose build failed on '
                      'every host: expected 409 Conflict (it is not a '
                      'server buried for lack of capacity), got 202 with '
                      'status %s' % (self.rebuild_mv, body['id'],
                                     response['server'].get('status')))
        after = self.show(body['id'], self.rebuild_mv)
        self.assert_state(after, ERROR, 'after its refused rebuild')
        problems = checks.differences(
            {'fault.message': fault},
            {'fault.message': (after.get('fault') or {}).get('message')},
            'after the refused rebuild: ')
        actions, _ = self.instance_events(body['id'], 'rebuild')
        if 'rebuild' in actions:
            problems.append('after the refused rebuild: expected no rebuild '
                            'instance action, got actions %s' % actions)
        if problems:
            self.fail('Server %s: %s' % (body['id'], '; '.join(problems)))
