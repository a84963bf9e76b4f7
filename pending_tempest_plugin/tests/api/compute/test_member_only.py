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
"""The requirements a run with member credentials only can decide.

No admin credentials: this class runs on a cloud whose operator gives the
tester nothing but project members (pre-provisioned accounts), and in every
admin run too.  Every other requirement needs admin (to create flavors,
read hosts, disable computes) and a member-only verdict names it ``needs
admin``.
"""

from tempest import config
from tempest.lib import decorators

from pending_tempest_plugin.common import features
from pending_tempest_plugin.common import markers
from pending_tempest_plugin.common import microversions
from pending_tempest_plugin.tests import base

CONF = config.CONF


class MemberOnlyTest(base.ConformanceTest):

    credentials = ['primary', 'project_reader', 'alt']
    min_microversion = '2.16'

    @classmethod
    def resource_setup(cls):
        super(MemberOnlyTest, cls).resource_setup()
        # Booted by owner_member and waited for with its own client.
        cls.server = cls.create_server()

    @decorators.idempotent_id('0bc24f83-aaec-4373-bef1-a57aa0de5a4d')
    @markers.requirements('HS-16')
    def test_member_views(self):
        """Owner member and reader, and another project, without admin.

        The server was just booted on a compute the scheduler chose, so its
        host is UP; each persona sees exactly what the declared profile
        gives it (under admin_only: 200 with no host_status key for the
        owner, 404 for the other project).
        """
        self.check_visibility(self.server, 'UP')


class MemberOnlyMicroversionTest(base.ConformanceTest):
    """The microversions the claims name, as a member reads them."""

    credentials = ['primary']
    required_features = (features.new_microversion,)

    @decorators.idempotent_id('377b1a82-62a9-4ae4-a3d7-810bdcf656be')
    @markers.requirements('PEND-16')
    def test_api_max_microversion(self):
        """The API's max microversion covers the configured ones."""
        pending_mv = CONF.nova_conformance.pending_state_microversion
        rebuild_mv = CONF.nova_conformance.cell0_rebuild_microversion
        api_max = microversions.api_max_microversion(
            self.os_primary.compute_versions_client)
        for option, version in (
                ('pending_state_microversion', pending_mv),
                ('cell0_rebuild_microversion', rebuild_mv)):
            if version:
                self.assertTrue(
                    microversions.at_least(api_max, version),
                    'Compute API max microversion: expected at least %s '
                    '([nova_conformance] %s), got %s' % (version, option,
                                                         api_max))
