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
import threading
import time
from unittest import mock

import fixtures
from oslotest import base
from tempest.lib import exceptions as lib_exc
from tempest.lib.services.compute import base_compute_client
from tempest.lib.services.placement import base_placement_client

from pending_tempest_plugin.common import features
from pending_tempest_plugin.common import novalidhost
from pending_tempest_plugin.unit_tests import fakes

RP = 'rp-compute1'


class FakeFlavors(object):
    """Nova flavors with extra specs; appends what it does to ``events``."""

    def __init__(self, events):
        self.events = events
        self.flavors = {
            base: {'id': base, 'name': 'm1.' + base, 'ram': 64, 'vcpus': 1,
                   'disk': 1} for base in ('42', '7')}
        self.specs = {'42': {}, '7': {}}
        self.count = 0
        self.deleted_meanwhile = set()   # gone between list and show

    def show_flavor(self, flavor_id):
        return {'flavor': dict(self.flavors[flavor_id])}

    def create_flavor(self, **kwargs):
        self.count += 1
        flavor = dict(kwargs, id='f%d' % self.count)
        self.flavors[flavor['id']] = flavor
        self.specs[flavor['id']] = {}
        self.events.append(('create_flavor', flavor['id']))
        return {'flavor': flavor}

    def set_flavor_extra_spec(self, flavor_id, **specs):
        self.specs[flavor_id].update(specs)
        return {'extra_specs': specs}

    def add_flavor_access(self, flavor_id, project_id):
        return {}

    def delete_flavor(self, flavor_id):
        if flavor_id not in self.flavors:
            raise lib_exc.NotFound()
        del self.flavors[flavor_id], self.specs[flavor_id]
        self.events.append(('delete_flavor', flavor_id))

    def list_flavors(self, **params):
        self.list_params = params
        return {'flavors': [{'id': f['id'], 'name': f['name']}
                            for f in self.flavors.values()]}

    def list_flavor_extra_specs(self, flavor_id):
        if flavor_id in self.deleted_meanwhile:
            raise lib_exc.NotFound()
        return {'extra_specs': dict(self.specs[flavor_id])}


class FakePlacement(object):
    """Traits and generations of providers, with placement's 409 rules."""

    def __init__(self, events=None):
        self.traits = {RP: ['COMPUTE_NET_ATTACH_INTERFACE', 'HW_CPU_X86_AVX']}
        self.generation = {RP: 7}
        self.bump_before_update = 0   # concurrent writers to simulate
        self.concurrent_500 = 0       # placement 500 concurrent updates
        self.deadlock_500 = 0         # its database's deadlock (500)
        self.microversions = []
        self.existing = {'CUSTOM_SOMEONE_ELSE'}
        self.created, self.deleted = [], []
        self.events = [] if events is None else events

    def _seen(self):
        self.microversions.append(
            base_placement_client.PLACEMENT_MICROVERSION)

    def create_trait(self, name):
        self._seen()
        self.existing.add(name)
        self.created.append(name)
        self.events.append(('create_trait', name))

    def delete_trait(self, name):
        self._seen()
        if any(name in traits for traits in self.traits.values()):
            raise lib_exc.Conflict('trait in use')
        if name not in self.existing:
            raise lib_exc.NotFound()
        self.existing.remove(name)
        self.deleted.append(name)
        self.events.append(('delete_trait', name))

    def list_traits(self, name):
        self._seen()
        self.list_query = name
        prefix = name[len('startswith:'):]
        return {'traits': sorted(t for t in self.existing
                                 if t.startswith(prefix))}

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
        if self.deadlock_500:
            self.deadlock_500 -= 1
            raise lib_exc.ServerFault(
                "(pymysql.err.OperationalError) (1213, 'Deadlock found when "
                "trying to get lock; try restarting transaction') [SQL: "
                "UPDATE resource_providers SET generation=...]")
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


class FakeHypervisors(object):
    """os-hypervisors at 2.53: ids are compute node (provider) UUIDs."""

    def __init__(self):
        self.microversions = []

    def list_hypervisors(self, detail=False):
        assert detail
        self.microversions.append(base_compute_client.COMPUTE_MICROVERSION)
        return {'hypervisors': [
            {'id': RP, 'hypervisor_hostname': 'compute1.example',
             'service': {'host': 'compute1'}},
            {'id': 'rp-0', 'hypervisor_hostname': 'compute0.example',
             'service': {'host': 'compute0'}}]}


class TestNoValidHostTrigger(base.BaseTestCase):

    def setUp(self):
        super().setUp()
        conf = self.useFixture(
            fixtures.MockPatchObject(novalidhost, 'CONF')).mock
        conf.resource_name_prefix = 'tempest'
        conf.compute.flavor_ref = '42'
        conf.oslo_concurrency.lock_path = self.useFixture(
            fixtures.TempDir()).path
        self.test = fakes.CleanupRecorder()
        self.events = []
        self.fake_flavors = FakeFlavors(self.events)
        self.flavors = mock.Mock(wraps=self.fake_flavors)
        self.placement = FakePlacement(self.events)
        self.hypervisors = FakeHypervisors()
        self.capacity_hosts = ['compute1']
        self.disruptive_hosts = []
        group = self.useFixture(fixtures.MockPatchObject(
            features, '_group')).mock.return_value
        type(group).capacity_hosts = mock.PropertyMock(
            side_effect=lambda: self.capacity_hosts)
        type(group).disruptive_hosts = mock.PropertyMock(
            side_effect=lambda: self.disruptive_hosts)
        self.trigger = novalidhost.NoValidHostTrigger(
            self.test, self.flavors, self.placement, self.placement,
            self.hypervisors)

    def test_random_trait_name_is_a_valid_custom_trait(self):
        name = novalidhost.random_trait_name()
        self.assertIsNotNone(re.match(r'^CUSTOM_TEMPEST_NOVALIDHOST_\d+$',
                                      name), name)
        self.assertNotEqual(name, novalidhost.random_trait_name())

    def test_create_flavor(self):
        flavor = self.trigger.create_flavor('project-1')
        trait = self.trigger.trait
        self.assertEqual('f1', flavor['id'])
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
        # The flavor that requires the trait exists before the trait and
        # after it: a trait without a flavor is an orphan.
        self.test.run_cleanups()
        self.flavors.delete_flavor.assert_called_once_with('f1')
        self.assertEqual([trait], self.placement.deleted)
        self.assertEqual([('create_flavor', 'f1'), ('create_trait', trait),
                          ('delete_trait', trait), ('delete_flavor', 'f1')],
                         self.events)
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

    def test_database_deadlock_500_is_retried(self):
        # Seen in a verdict: placement's database deadlocked on the
        # generation's UPDATE of two concurrent trait writes (500).
        self.trigger.create_flavor('project-1')
        self.placement.deadlock_500 = 2
        self.trigger.add_capacity(RP)
        self.assertIn(self.trigger.trait, self.placement.traits[RP])

    def test_writers_of_one_provider_take_turns(self):
        # The lock is in lock_path: the test workers (processes) share it.
        inside, overlaps = [], []
        real = self.trigger._put_traits_locked

        def put(*args):
            if inside:
                overlaps.append(args)
            inside.append(1)
            time.sleep(0.05)
            real(*args)
            inside.pop()
        self.trigger.create_flavor('project-1')
        self.useFixture(fixtures.MockPatchObject(
            self.trigger, '_put_traits_locked', put))
        threads = [threading.Thread(target=self.trigger._put_traits,
                                    args=(RP,), kwargs={'add': [t]})
                   for t in ('CUSTOM_A', 'CUSTOM_B')]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        self.assertEqual([], overlaps)
        self.assertEqual(set(), {'CUSTOM_A', 'CUSTOM_B'} - set(
            self.placement.traits[RP]))

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

    def test_pick_provider_of_the_first_listed_host_with_a_node(self):
        self.capacity_hosts = ['gone', 'compute0', 'compute1']
        self.assertEqual('rp-0', self.trigger.pick_provider())
        self.assertEqual(['2.53'], self.hypervisors.microversions)
        self.assertIsNone(base_compute_client.COMPUTE_MICROVERSION)
        self.assertEqual(RP, self.trigger.pick_provider('compute1'))

    def test_capacity_hosts_default_to_disruptive_hosts(self):
        self.capacity_hosts = []
        self.disruptive_hosts = ['compute1']
        self.assertEqual(RP, self.trigger.pick_provider())

    def test_no_host_named_writes_nothing(self):
        self.capacity_hosts = []
        e = self.assertRaises(lib_exc.InvalidConfiguration,
                              self.trigger.pick_provider)
        self.assertIn('set [nova_conformance] capacity_hosts', str(e))
        self.trigger.create_flavor('project-1')
        self.assertRaises(lib_exc.InvalidConfiguration,
                          self.trigger.add_capacity)
        self.assertEqual([], self.hypervisors.microversions)
        self.assertEqual([('create_flavor', 'f1'),
                          ('create_trait', self.trigger.trait)], self.events)

    def test_a_host_not_listed_is_refused(self):
        self.capacity_hosts = ['compute1']
        e = self.assertRaises(lib_exc.InvalidConfiguration,
                              self.trigger.pick_provider, 'compute0')
        self.assertIn('capacity_hosts lists only compute1', str(e))
        self.assertEqual([], self.hypervisors.microversions)

    def test_add_capacity_picks_a_provider(self):
        self.capacity_hosts = ['compute0']
        self.placement.traits['rp-0'] = []
        self.placement.generation['rp-0'] = 1
        self.trigger.create_flavor('project-1')
        self.assertEqual('rp-0', self.trigger.add_capacity())
        self.assertEqual([self.trigger.trait], self.placement.traits['rp-0'])
        self.assertNotIn(self.trigger.trait, self.placement.traits[RP])

    def test_no_node_of_the_listed_hosts(self):
        self.capacity_hosts = ['nohost']
        e = self.assertRaises(lib_exc.InvalidConfiguration,
                              self.trigger.pick_provider)
        self.assertIn('No compute node of nohost', str(e))
        self.assertIn('with a compute node: compute0, compute1', str(e))

    def test_add_capacity_needs_the_flavor_first(self):
        self.assertRaises(RuntimeError, self.trigger.add_capacity, RP)

    def test_prefixes_match_the_names(self):
        self.assertEqual('CUSTOM_TEMPEST_NOVALIDHOST_',
                         novalidhost.trait_prefix())
        self.assertEqual('tempest-novalidhost-', novalidhost.flavor_prefix())
        self.assertTrue(novalidhost.random_trait_name().startswith(
            novalidhost.trait_prefix()))
        novalidhost.CONF.resource_name_prefix = ''
        self.assertEqual('CUSTOM_NOVALIDHOST_', novalidhost.trait_prefix())
        self.assertEqual('novalidhost-', novalidhost.flavor_prefix())

    def sweep(self):
        return novalidhost.sweep_orphan_traits(self.placement, self.flavors)

    def test_sweep_deletes_only_orphans(self):
        live = self.trigger.create_flavor('project-1')   # its flavor needs it
        on_provider = 'CUSTOM_TEMPEST_NOVALIDHOST_1'      # 409 from placement
        orphan = 'CUSTOM_TEMPEST_NOVALIDHOST_2'
        self.placement.existing.update([on_provider, orphan])
        self.placement.traits[RP].append(on_provider)
        self.assertEqual([orphan], self.sweep())
        self.assertEqual({self.trigger.trait, on_provider,
                          'CUSTOM_SOMEONE_ELSE'}, self.placement.existing)
        self.assertEqual('startswith:CUSTOM_TEMPEST_NOVALIDHOST_',
                         self.placement.list_query)
        self.assertEqual({'is_public': 'None'},
                         self.fake_flavors.list_params)
        # Only the trigger's flavors are read for their extra specs.
        self.flavors.list_flavor_extra_specs.assert_called_once_with(
            live['id'])
        self.assertEqual({'1.6'}, set(self.placement.microversions))

    def test_trait_nova_recreated_goes_at_the_next_cleanup(self):
        self.trigger.create_flavor('project-1')
        self.trigger.add_capacity(RP)
        first = self.trigger.trait
        self.test.run_cleanups()
        # nova-compute writes its provider's traits from a stale cache.
        self.placement.existing.add(first)
        later = novalidhost.NoValidHostTrigger(
            self.test, self.flavors, self.placement, self.placement)
        later.create_flavor('project-1')
        self.test.run_cleanups()
        self.assertEqual({'CUSTOM_SOMEONE_ELSE'}, self.placement.existing)
        self.assertEqual([first, later.trait, first], self.placement.deleted)

    def test_sweep_without_trigger_traits_reads_no_flavor(self):
        self.assertEqual([], self.sweep())
        self.flavors.list_flavors.assert_not_called()

    def test_sweep_skips_a_flavor_deleted_meanwhile(self):
        self.trigger.create_flavor('project-1')
        self.fake_flavors.deleted_meanwhile.add('f1')
        # Its flavor is gone: the trait is an orphan now.
        self.assertEqual([self.trigger.trait], self.sweep())

    def test_sweep_leaves_a_trait_deleted_meanwhile(self):
        self.placement.existing.add('CUSTOM_TEMPEST_NOVALIDHOST_3')
        real_delete = self.placement.delete_trait

        def deleted_first(name):
            self.placement.existing.discard(name)
            return real_delete(name)
        self.placement.delete_trait = deleted_first
        self.assertEqual([], self.sweep())
