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
"""The reversible NoValidHost trigger against fake Tempest clients."""

import re
from unittest import mock

import fixtures
from oslotest import base
from tempest.lib import exceptions as lib_exc
from tempest.lib.services.placement import base_placement_client

from pending_tempest_plugin.common import novalidhost
from pending_tempest_plugin.unit_tests import fakes

RP = 'rp-compute1'


class FakePlacement(object):
    """Traits and generations of providers, with placement's 409 rule."""

    def __init__(self):
        self.traits = {RP: ['COMPUTE_NET_ATTACH_INTERFACE', 'HW_CPU_X86_AVX']}
        self.generation = {RP: 7}
        self.bump_before_update = 0   # concurrent writers to simulate
        self.concurrent_500 = 0       # placement 500 concurrent updates
        self.microversions = []
        self.created, self.deleted = [], []

    def _seen(self):
        self.microversions.append(
            base_placement_client.PLACEMENT_MICROVERSION)

    def create_trait(self, name):
        self._seen()
        self.created.append(name)

    def delete_trait(self, name):
        self._seen()
        self.deleted.append(name)

    def list_resource_providers(self, **params):
        self._seen()
        self.list_params = params
        return {'resource_providers': [{'uuid': RP, 'name': 'compute1'},
                                       {'uuid': 'rp-0', 'name': 'compute0'}]}

    def list_resource_provider_traits(self, rp):
        self._seen()
        return {'traits': list(self.traits[rp]),
                'resource_provider_generation': self.generation[rp]}

    def update_resource_provider_traits(self, rp, traits,
                                        resource_provider_generation):
        self._seen()
        if self.concurrent_500:
            self.concurrent_500 -= 1
            raise lib_exc.ServerFault(
                'Another thread concurrently updated the resource provider '
                'data. Please retry your update')
        if self.bump_before_update:
            self.bump_before_update -= 1
            self.generation[rp] += 1
        if resource_provider_generation != self.generation[rp]:
            raise lib_exc.Conflict('generation conflict')
        self.traits[rp] = list(traits)
        self.generation[rp] += 1
        return {}


class TestNoValidHostTrigger(base.BaseTestCase):

    def setUp(self):
        super().setUp()
        conf = self.useFixture(
            fixtures.MockPatchObject(novalidhost, 'CONF')).mock
        conf.resource_name_prefix = 'tempest'
        conf.compute.flavor_ref = '42'
        self.test = fakes.CleanupRecorder()
        self.flavors = mock.Mock()
        self.flavors.show_flavor.return_value = {
            'flavor': {'id': '42', 'ram': 64, 'vcpus': 1, 'disk': 1}}
        self.flavors.create_flavor.return_value = {'flavor': {'id': 'f1'}}
        self.placement = FakePlacement()
        self.trigger = novalidhost.NoValidHostTrigger(
            self.test, self.flavors, self.placement, self.placement)

    def test_random_trait_name_is_a_valid_custom_trait(self):
        name = novalidhost.random_trait_name()
        self.assertIsNotNone(re.match(r'^CUSTOM_TEMPEST_NOVALIDHOST_\d+$',
                                      name), name)
        self.assertNotEqual(name, novalidhost.random_trait_name())

    def test_create_flavor(self):
        flavor = self.trigger.create_flavor('project-1')
        trait = self.trigger.trait
        self.assertEqual({'id': 'f1'}, flavor)
        self.assertEqual([trait], self.placement.created)
        self.flavors.show_flavor.assert_called_once_with('42')
        kwargs = self.flavors.create_flavor.call_args.kwargs
        self.assertFalse(kwargs['is_public'])
        self.assertEqual((64, 1, 1), (kwargs['ram'], kwargs['vcpus'],
                                      kwargs['disk']))
        self.assertTrue(kwargs['name'].startswith('tempest-novalidhost-'))
        self.flavors.set_flavor_extra_spec.assert_called_once_with(
            'f1', **{'trait:%s' % trait: 'required'})
        self.flavors.add_flavor_access.assert_called_once_with(
            'f1', 'project-1')
        # Cleanups: the flavor goes first, then the trait.
        self.test.run_cleanups()
        self.flavors.delete_flavor.assert_called_once_with('f1')
        self.assertEqual([trait], self.placement.deleted)
        self.assertEqual({'1.6'}, set(self.placement.microversions))
        self.assertIsNone(base_placement_client.PLACEMENT_MICROVERSION)

    def test_base_flavor_can_be_given(self):
        self.trigger.create_flavor('project-1', base_flavor_id='7')
        self.flavors.show_flavor.assert_called_once_with('7')

    def test_add_capacity_to_one_provider_and_restore_exactly(self):
        before = list(self.placement.traits[RP])
        self.trigger.create_flavor('project-1')
        self.assertEqual(RP, self.trigger.add_capacity(RP))
        self.assertEqual(sorted(before + [self.trigger.trait]),
                         self.placement.traits[RP])
        # Nova's resource tracker bumps the generation meanwhile.
        self.placement.generation[RP] += 3
        self.test.run_cleanups()
        self.assertEqual(before, self.placement.traits[RP])
        self.assertEqual([self.trigger.trait], self.placement.deleted)

    def test_generation_conflict_is_retried(self):
        self.trigger.create_flavor('project-1')
        self.placement.bump_before_update = 2
        self.trigger.add_capacity(RP)
        self.assertIn(self.trigger.trait, self.placement.traits[RP])

    def test_restore_retries_conflict_too(self):
        before = list(self.placement.traits[RP])
        self.trigger.create_flavor('project-1')
        self.trigger.add_capacity(RP)
        self.placement.bump_before_update = 1
        self.test.run_cleanups()
        self.assertEqual(before, self.placement.traits[RP])

    def test_parallel_triggers_on_one_provider_remove_only_their_trait(self):
        # Two tests add their trait to the same provider and end in the
        # order A, B: each removes its own trait, none comes back.
        before = list(self.placement.traits[RP])
        other_test = fakes.CleanupRecorder()
        other = novalidhost.NoValidHostTrigger(
            other_test, self.flavors, self.placement, self.placement)
        self.trigger.create_flavor('project-1')
        other.create_flavor('project-2')
        self.trigger.add_capacity(RP)
        other.add_capacity(RP)
        self.test.run_cleanups()
        self.assertEqual(sorted(before + [other.trait]),
                         self.placement.traits[RP])
        other_test.run_cleanups()
        self.assertEqual(before, self.placement.traits[RP])

    def test_restore_retries_concurrent_update_500(self):
        before = list(self.placement.traits[RP])
        self.trigger.create_flavor('project-1')
        self.trigger.add_capacity(RP)
        self.placement.concurrent_500 = 2
        self.test.run_cleanups()
        self.assertEqual(before, self.placement.traits[RP])

    def test_other_server_fault_is_not_retried(self):
        self.trigger.create_flavor('project-1')
        self.placement.update_resource_provider_traits = mock.Mock(
            side_effect=lib_exc.ServerFault('database is gone'))
        self.assertRaises(lib_exc.ServerFault, self.trigger.add_capacity, RP)
        self.assertEqual(
            1, self.placement.update_resource_provider_traits.call_count)

    def test_persistent_conflict_fails_clearly(self):
        self.trigger.create_flavor('project-1')
        self.placement.bump_before_update = novalidhost.GENERATION_RETRIES
        e = self.assertRaises(lib_exc.TempestException,
                              self.trigger.add_capacity, RP)
        self.assertIn('generation conflict 5 times in a row', str(e))

    def test_pick_provider(self):
        self.assertEqual('rp-0', self.trigger.pick_provider())
        self.assertEqual({'resources': 'VCPU:1'}, self.placement.list_params)
        self.trigger.pick_provider('compute1')
        self.assertEqual({'name': 'compute1'}, self.placement.list_params)

    def test_add_capacity_picks_a_provider(self):
        self.placement.traits['rp-0'] = []
        self.placement.generation['rp-0'] = 1
        self.trigger.create_flavor('project-1')
        self.assertEqual('rp-0', self.trigger.add_capacity())
        self.assertEqual([self.trigger.trait], self.placement.traits['rp-0'])
        self.assertNotIn(self.trigger.trait, self.placement.traits[RP])

    def test_no_provider(self):
        self.placement.list_resource_providers = mock.Mock(
            return_value={'resource_providers': []})
        self.assertRaises(lib_exc.InvalidConfiguration,
                          self.trigger.pick_provider, 'nohost')

    def test_add_capacity_needs_the_flavor_first(self):
        self.assertRaises(RuntimeError, self.trigger.add_capacity, RP)
