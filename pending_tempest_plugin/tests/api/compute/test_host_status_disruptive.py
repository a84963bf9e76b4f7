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
"""host_status MAINTENANCE and DOWN, and their precedence.

These tests disable or force down the nova-compute of the host of their
server, so they run only with ``[nova_conformance] disruptive_tests =
True`` and only on the hosts ``disruptive_hosts`` lists (the server is
cold-migrated to one of them if the scheduler put it elsewhere), serially
(Tempest's ``serial`` class lock keeps every other test class out while
they run), and every change is undone by ``common.host_control`` at
cleanup, even when the test fails.  The tests that need a stopped compute
(UNKNOWN, and MAINTENANCE or DOWN over it) are
``test_host_status_listing.HostStatusListingStoppedComputeTest``: the
suite stops a compute once.
"""

from tempest import config
from tempest.lib import decorators

from pending_tempest_plugin.common import features
from pending_tempest_plugin.common import markers
from pending_tempest_plugin.tests import base

CONF = config.CONF

# HS-10: the spec's precedence and what nova's get_instance_host_status
# returns instead (the requirement is flagged in the catalogue).
SPEC_PRECEDENCE = 'MAINTENANCE'
NOVA_PRECEDENCE = 'DOWN'


class HostStatusDisruptiveBase(base.ConformanceTest):
    """A server on a host the tests may disturb; it has no test."""

    min_microversion = '2.16'
    required_features = (features.disruptive,)

    @classmethod
    def resource_setup(cls):
        super(HostStatusDisruptiveBase, cls).resource_setup()
        cls.server, cls.host = cls.server_on_disruptive_host()

    def setUp(self):
        super(HostStatusDisruptiveBase, self).setUp()
        self.hosts = self.host_control()


@decorators.serial
class HostStatusDisruptiveTest(HostStatusDisruptiveBase):
    """A compute disabled or forced down."""

    @decorators.attr(type='slow')
    @decorators.idempotent_id('b0cddd36-edb6-471c-bd77-6f3683afe71e')
    @markers.requirements('HS-08', 'HS-13', 'HS-04', 'HS-14', 'HS-15',
                          'HS-16', 'HS-17')
    def test_maintenance(self):
        """A disabled compute reads MAINTENANCE; its server stays ACTIVE."""
        self.hosts.disable(self.host)
        self.check_visibility(self.server, 'MAINTENANCE')
        with self.at('2.1'):
            server = self.admin_servers.show_server(
                self.server['id'])['server']
        self.assertEqual('ACTIVE', server['status'],
                         'Disabling the compute changed the server status')

    @decorators.attr(type='slow')
    @decorators.idempotent_id('2342d3e2-25fa-404b-bc5a-acc4e9cadc53')
    @markers.requirements('HS-07', 'HS-04', 'HS-14', 'HS-15', 'HS-16',
                          'HS-17')
    def test_down(self):
        """A forced-down compute reads DOWN."""
        self.hosts.force_down(self.host)
        self.check_visibility(self.server, 'DOWN')

    @decorators.attr(type='slow')
    @decorators.idempotent_id('c5a01598-4f67-418c-85e1-2de7f816a9e0')
    @markers.requirements('HS-24')
    def test_maintenance_update_response(self):
        """The 2.75 update response of a server on a disabled compute."""
        self.require_update_response()
        self.hosts.disable(self.host)
        self.check_update_response(self.server, 'MAINTENANCE')

    @decorators.attr(type='slow')
    @decorators.idempotent_id('41c28dc7-b31b-4397-9b94-98bf890b1aef')
    @markers.requirements('HS-24')
    def test_down_update_response(self):
        """The 2.75 update response of a server on a forced-down compute."""
        self.require_update_response()
        self.hosts.force_down(self.host)
        self.check_update_response(self.server, 'DOWN')

    @decorators.attr(type='slow')
    @decorators.idempotent_id('a97a02bf-9f49-4f0c-a32b-3f4cfd175b76')
    @markers.requirements('HS-10')
    def test_disabled_and_forced_down(self):
        """The spec: MAINTENANCE overrides DOWN (every persona, show, detail).

        HS-10 is flagged in the catalogue: nova's get_instance_host_status
        checks forced_down first and returns DOWN.  When the cloud answers
        exactly that, the result is an expected failure (``xfail`` in the
        subunit stream, "known divergence" in the report), never a pass and
        never hidden; any other value than the two is a plain failure.
        """
        self.hosts.force_down(self.host)
        self.hosts.disable(self.host)
        actual = self.admin_host_status(self.server)
        if actual in (SPEC_PRECEDENCE, NOVA_PRECEDENCE):
            # Whichever wins, every persona sees it as the profile says,
            # in show and in detail.
            self.check_visibility(self.server, actual)
        if actual == NOVA_PRECEDENCE:
            self.expectFailure(
                'HS-10 (flagged): the cloud answers %s, as nova\'s '
                'get_instance_host_status does; the spec says %s overrides '
                '%s' % (NOVA_PRECEDENCE, SPEC_PRECEDENCE, NOVA_PRECEDENCE),
                self.assertEqual, SPEC_PRECEDENCE, actual)
        self.assertEqual(SPEC_PRECEDENCE, actual,
                         'A compute both disabled and forced down')
