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
"""host_status (*Get valid server state*) without disturbing the cloud.

UP and "" (no host), the absence of the key below 2.16, the 2.75 update and
rebuild responses, and who sees what under the configured policy profile.
The states that need a compute disabled or forced down are in
test_host_status_disruptive.py, those that need one stopped in
test_host_status_listing.HostStatusListingStoppedComputeTest.
"""

from tempest import config
from tempest.lib import decorators

from pending_tempest_plugin.common import expectations
from pending_tempest_plugin.common import features
from pending_tempest_plugin.common import markers
from pending_tempest_plugin.common import novalidhost
from pending_tempest_plugin.common import waiters
from pending_tempest_plugin.tests import base

CONF = config.CONF


class HostStatusBase(base.ConformanceTest):
    """One server on a healthy compute; it has no test."""

    min_microversion = '2.16'

    @classmethod
    def resource_setup(cls):
        super(HostStatusBase, cls).resource_setup()
        # One server on a healthy compute, owned by owner_member.
        cls.server = cls.create_server()


class HostStatusTest(HostStatusBase):
    """UP, and no host_status below 2.16."""

    @decorators.idempotent_id('3834ed88-cfd6-4a9b-992d-f7c62d5055e0')
    @markers.requirements('HS-01', 'HS-02', 'HS-04', 'HS-05', 'HS-14',
                          'HS-15', 'HS-16', 'HS-17')
    def test_up_visibility(self):
        """UP on a healthy compute; each persona sees what its policy says.

        Admin, the owner (member and reader) and another project, in show
        and in detail at 2.16.
        """
        self.assertIsNotNone(self.host_of(self.server['id']),
                             'An ACTIVE server has a host')
        self.check_visibility(self.server, 'UP')

    @decorators.idempotent_id('8b938570-a9cc-4900-8182-6fc371dbab04')
    @markers.requirements('HS-03')
    def test_no_host_status_below_2_16(self):
        """At 2.15 no persona gets the key, not even admin.

        Through each profile's endpoint: no policy shows it below 2.16.
        """
        problems = []
        for profile, servers in self.profile_servers:
            for persona in expectations.PERSONAS:
                shown, listed = self.view(persona, self.server, '2.15',
                                          servers)
                for where, body in (('show', shown), ('detail', listed)):
                    if body is not None and 'host_status' in body:
                        problems.append(
                            '%s got host_status %r in %s at 2.15' % (
                                persona, body['host_status'],
                                self.where(where, profile)))
                    elif body is None and persona == 'admin':
                        # Nothing returned proves nothing.
                        problems.append('admin got no server in %s at 2.15'
                                        % self.where(where, profile))
        self.assertEqual([], problems)


class HostStatusNoHostTest(base.ConformanceTest):
    """A server without a host (it failed to schedule)."""

    min_microversion = '2.16'
    required_features = (features.novalidhost,)

    @decorators.idempotent_id('644c42dc-92b1-4c10-95da-479a428e7f04')
    @markers.requirements('HS-09', 'HS-04', 'HS-14', 'HS-15', 'HS-16',
                          'HS-17')
    def test_no_host_visibility(self):
        """"" for a server that failed to schedule (it has no host)."""
        trigger = novalidhost.NoValidHostTrigger(
            self, self.os_admin.flavors_client, self.os_admin.placement_client,
            self.os_admin.resource_providers_client)
        flavor = trigger.create_flavor(self.owner_project_id)
        server = self.create_server(flavor=flavor['id'],
                                    wait_for=waiters.TERMINAL, cleanup=self)
        self.assertIsNone(self.host_of(server['id']),
                          'A server that failed to schedule has no host')
        self.check_visibility(server, '')


class HostStatusFullResponseTest(HostStatusBase):
    """The 2.75 responses of update and rebuild carry host_status."""

    # The owner's and admin's responses: no reader, no other project.
    credentials = ['primary', 'admin']
    min_microversion = base.FULL_UPDATE_RESPONSE_MICROVERSION

    @decorators.idempotent_id('afd296f2-fcb5-404b-b397-a6974a892468')
    @markers.requirements('HS-18')
    def test_update_response(self):
        """PUT /servers/{id} at 2.75 answers host_status as show does.

        Under each profile, through its endpoint.
        """
        self.check_update_response(self.server, 'UP')

    @decorators.idempotent_id('8d9918f7-8abf-45e2-83c9-448c3ef0f217')
    @markers.requirements('HS-18')
    def test_rebuild_response(self):
        """The rebuild action at 2.75 answers host_status as show does.

        Under each profile, through its endpoint.
        """
        server = self.create_server(cleanup=self)
        problems = []
        for profile, servers in self.profile_servers:
            for persona in ('owner_member', 'admin'):
                with self.at(base.FULL_UPDATE_RESPONSE_MICROVERSION):
                    body = servers[persona].rebuild_server(
                        server['id'], CONF.compute.image_ref)['server']
                problem = expectations.verdict(profile, persona, 'UP', body)
                if problem:
                    problems.append('%s (%s)' % (problem, self.where(
                        'rebuild action at 2.75', profile)))
                waiters.wait_for_server_status(self.admin_servers,
                                               server['id'], 'ACTIVE')
        self.assertEqual([], problems)
