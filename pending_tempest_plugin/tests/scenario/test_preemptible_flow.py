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
"""The preemptible-servers flow, end to end.

The test plays the "external service" of the PENDING spec's use case.  The
capacity a private flavor can use is the set of compute providers with its
custom trait: none at first, so every new server of the flavor goes
PENDING.  The service then makes capacity available (adds the trait to one
provider: the reversible stand-in for freeing a host; real capacity is
never filled or disabled) and rebuilds the PENDING server, which becomes
ACTIVE with the same ID.  Failure branch: the service gives up on another
PENDING server, resets it to ERROR and deletes it; nothing is left and
quota usage is back.
"""

from tempest import config
from tempest.lib import decorators

from pending_tempest_plugin.common import features
from pending_tempest_plugin.common import markers
from pending_tempest_plugin.common import waiters
from pending_tempest_plugin.tests import cell0_base

CONF = config.CONF


class PreemptibleFlowTest(cell0_base.Cell0Test):

    required_features = (features.pending_enabled, features.cell0_rebuild)

    @decorators.idempotent_id('946f0668-1a48-49a6-9b72-d8b1789362b0')
    @markers.requirements('PEND-02', 'PEND-09', 'PEND-10', 'RB-01', 'RB-03')
    def test_preemptible_flow(self):
        trigger = self.novalidhost_trigger()
        instances_before = self.usage('instances')[1]

        # No capacity for the flavor: both requests go PENDING.
        wanted = self.bury(trigger)
        abandoned = self.bury(trigger)

        # The external service frees capacity and rebuilds the first one.
        trigger.add_capacity()
        active = self.rebuild_to_active(wanted['id'])
        self.assertEqual(wanted['id'], active['id'])
        self.assert_on_healthy_host(wanted['id'])

        # Failure branch: PENDING -> ERROR (reset-state) -> deleted.
        self.admin_servers.reset_state(abandoned['id'], state='error')
        self.assert_state(self.show(abandoned['id']), ('ERROR', 'error'),
                          'after os-resetState error')
        self.owner_servers.delete_server(abandoned['id'])
        waiters.wait_for_server_deletion(self.admin_servers, abandoned['id'])
        self.assertEqual([], self.leftovers(abandoned['id']))

        # The rebuilt server is the only one still counted.
        self.assertEqual(instances_before + 1, self.usage('instances')[1],
                         'instances in_use at the end of the flow: the '
                         'rebuilt server only')
