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
"""A reversible NoValidHost that never disturbs other users of the cloud.

The trigger creates a private flavor that requires a random custom trait
(``trait:CUSTOM_<random>=required``).  No resource provider has that trait,
so scheduling a server with the flavor fails with NoValidHost, while every
other flavor of the cloud schedules as before.  ``add_capacity`` adds the
trait to exactly one compute resource provider, which makes capacity
"appear" for that flavor only; that trait (and only it: parallel tests may
add theirs to the same provider) is removed when the test ends.
Everything is undone through ``addCleanup`` even when the test fails:
provider traits first, then the trait, then the flavor.

nova-compute keeps a cache of its provider's traits.  When it next writes
the provider's traits (the resource tracker does when the service is
disabled or enabled) from a cache taken while a trigger trait was on the
provider, it first re-creates every trait of that cache which no longer
exists, so a deleted trigger trait can come back as an orphan: on no
provider, required by no flavor.  ``sweep_orphan_traits`` deletes such
orphans; it runs after each trigger's own cleanup and after each
disruptive host_status test put its compute service back.  A trait is
only ever an orphan when nothing uses it: the flavor that requires it is
created before the trait and deleted after it, and placement refuses to
delete a trait that is on a provider.

Needs admin clients (flavors, placement, os-hypervisors).  Capacity goes
only to the provider of a host ``[nova_conformance] capacity_hosts`` lists
(``disruptive_hosts`` when it is empty): the one write the suite makes to
a resource provider of the cloud.
"""

import re

from oslo_concurrency import lockutils
from oslo_log import log as logging
from tempest import config
from tempest.lib.common.utils import data_utils
from tempest.lib.common.utils import test_utils
from tempest.lib import exceptions as lib_exc

from pending_tempest_plugin.common import features
from pending_tempest_plugin.common import microversions

CONF = config.CONF
LOG = logging.getLogger(__name__)

# os-hypervisors gives each hypervisor's id as its compute node's UUID
# (the resource provider's) and its service's host.
COMPUTE_NODE_UUIDS = '2.53'

# Placement answers 409 when the generation we sent is stale (nova's
# resource tracker updates providers concurrently): re-read and try again.
GENERATION_RETRIES = 5
# Placement's 500s for a concurrent update of a provider: its own message
# (two writers passed the generation check together), and the database's
# deadlock on the generation's UPDATE, which MariaDB / MySQL ask to retry
# ("try restarting transaction").
CONCURRENT_UPDATE = ('concurrently updated the resource provider',
                     'Deadlock found when trying to get lock')


def _resource_name():
    """``<prefix>-novalidhost-<random>``: the trigger's flavor and trait."""
    return data_utils.rand_name(name='novalidhost',
                                prefix=CONF.resource_name_prefix)


def _as_trait(name):
    return 'CUSTOM_' + re.sub('[^A-Z0-9_]', '_', name.upper())


def random_trait_name():
    """``CUSTOM_<PREFIX>_NOVALIDHOST_<random>``, valid for placement."""
    return _as_trait(_resource_name())


def _name_stem():
    """``<prefix>-novalidhost``: a resource name without its random part."""
    return _resource_name().rsplit('-', 1)[0]


def trait_prefix():
    """What the name of every trigger trait starts with."""
    return _as_trait(_name_stem()) + '_'


def flavor_prefix():
    """What the name of every trigger flavor starts with."""
    return _name_stem() + '-'


def _required_traits(flavors_client):
    """Traits required by the trigger flavors that exist now."""
    required = set()
    prefix = flavor_prefix()
    flavors = flavors_client.list_flavors(is_public='None')['flavors']
    for flavor in flavors:
        if not flavor['name'].startswith(prefix):
            continue
        try:
            specs = flavors_client.list_flavor_extra_specs(
                flavor['id'])['extra_specs']
        except lib_exc.NotFound:
            continue   # deleted since the listing
        required.update(key.split(':', 1)[1] for key, value in specs.items()
                        if key.startswith('trait:') and value == 'required')
    return required


def sweep_orphan_traits(placement_client, flavors_client):
    """Delete trigger traits nothing uses any more; return their names.

    A trigger trait no trigger flavor requires is an orphan (see the module
    docstring).  Placement answers 409 for a trait still on a provider:
    that one is left alone, like a trait deleted meanwhile (404).
    """
    with microversions.placement():
        traits = placement_client.list_traits(
            name='startswith:' + trait_prefix())['traits']
    if not traits:
        return []
    required = _required_traits(flavors_client)
    swept = []
    for trait in sorted(set(traits) - required):
        try:
            with microversions.placement():
                placement_client.delete_trait(trait)
        except (lib_exc.NotFound, lib_exc.Conflict):
            continue
        swept.append(trait)
    if swept:
        LOG.info('Deleted trigger traits nova-compute had re-created from '
                 'its provider cache: %s', ', '.join(swept))
    return swept


class NoValidHostTrigger(object):

    def __init__(self, test, flavors_client, placement_client,
                 resource_providers_client, hypervisors_client=None):
        """:param test: the test case; cleanups are registered on it.

        :param hypervisors_client: an admin os-hypervisors client; needed
                                   only to add capacity.
        """
        self.test = test
        self.hypervisors_client = hypervisors_client
        self.flavors_client = flavors_client
        self.placement_client = placement_client
        self.rp_client = resource_providers_client
        self.trait = None
        self.flavor = None

    def create_flavor(self, project_id, base_flavor_id=None):
        """Create the private flavor no host can take; return its body.

        It copies the size of ``base_flavor_id`` (default ``[compute]
        flavor_ref``) and is shared with ``project_id`` only.
        """
        # The flavor that requires the trait exists before the trait and
        # after it (cleanups run last in, first out), so a trait without
        # a trigger flavor is an orphan for sweep_orphan_traits.
        base = self.flavors_client.show_flavor(
            base_flavor_id or CONF.compute.flavor_ref)['flavor']
        flavor = self.flavors_client.create_flavor(
            name=_resource_name(),
            ram=base['ram'], vcpus=base['vcpus'], disk=base['disk'],
            is_public=False)['flavor']
        self.test.addCleanup(
            test_utils.call_and_ignore_notfound_exc,
            self.flavors_client.delete_flavor, flavor['id'])
        self.trait = random_trait_name()
        self.flavors_client.set_flavor_extra_spec(
            flavor['id'], **{'trait:%s' % self.trait: 'required'})
        self.flavors_client.add_flavor_access(flavor['id'], project_id)
        with microversions.placement():
            self.placement_client.create_trait(self.trait)
        self.test.addCleanup(self._delete_trait, self.trait)
        self.flavor = flavor
        return flavor

    def pick_provider(self, host=None):
        """UUID of the resource provider of one compute the operator named.

        The hosts of ``[nova_conformance] capacity_hosts`` (by default
        ``disruptive_hosts``), as os-services names them, are mapped to
        their compute nodes through os-hypervisors at 2.53, where a
        hypervisor's id is its compute node's UUID, which is its resource
        provider's.  ``host``: that one host (it must be listed);
        otherwise the first listed host that has a compute node.  A run
        never writes a trait to a provider of another host.
        """
        allowed = features.capacity_hosts()
        if not allowed:
            raise lib_exc.InvalidConfiguration(
                'The NoValidHost trigger needs a compute host it may add '
                'its capacity trait to: set [nova_conformance] '
                'capacity_hosts (or disruptive_hosts)')
        if host is not None and host not in allowed:
            raise lib_exc.InvalidConfiguration(
                'The NoValidHost trigger may not add capacity to %s: '
                '[nova_conformance] capacity_hosts lists only %s'
                % (host, ', '.join(allowed)))
        wanted = [host] if host is not None else allowed
        with microversions.compute(COMPUTE_NODE_UUIDS):
            hypervisors = self.hypervisors_client.list_hypervisors(
                detail=True)['hypervisors']
        nodes = {}
        for hypervisor in hypervisors:
            nodes.setdefault(hypervisor['service']['host'], []).append(
                (hypervisor['hypervisor_hostname'], hypervisor['id']))
        for name in wanted:
            if nodes.get(name):
                return sorted(nodes[name])[0][1]
        raise lib_exc.InvalidConfiguration(
            'No compute node of %s in os-hypervisors ([nova_conformance] '
            'capacity_hosts; the hosts with a compute node: %s)' % (
                ', '.join(wanted), ', '.join(sorted(nodes)) or 'none'))

    def add_capacity(self, provider_uuid=None):
        """Add the flavor's trait to exactly one provider; return its UUID.

        The trait is removed again at cleanup.  Only this trigger's own
        trait is added and removed (re-reading the provider each time), so
        triggers of tests running in parallel on the same provider, and
        nova's own trait updates, are left alone.
        """
        if self.trait is None:
            raise RuntimeError('create_flavor() first: no trait yet')
        provider_uuid = provider_uuid or self.pick_provider()
        self.test.addCleanup(self._put_traits, provider_uuid,
                             remove=[self.trait])
        self._put_traits(provider_uuid, add=[self.trait])
        return provider_uuid

    def _read_traits(self, provider_uuid):
        with microversions.placement():
            body = self.rp_client.list_resource_provider_traits(
                provider_uuid)
        return sorted(body['traits']), body['resource_provider_generation']

    def _put_traits(self, provider_uuid, add=(), remove=()):
        """Add / remove traits, re-reading the provider on a conflict.

        The plugin's writers of one provider's traits take turns (a lock
        per provider in ``[oslo_concurrency] lock_path``, which the test
        workers share): placement and its database fail two concurrent
        writes with a 500 rather than a 409.  nova-compute's own writes
        are not in the lock; a conflict with them is retried.
        """
        lock_path = CONF.oslo_concurrency.lock_path
        with lockutils.lock('pending-provider-traits-%s' % provider_uuid,
                            external=bool(lock_path), lock_path=lock_path):
            self._put_traits_locked(provider_uuid, add, remove)

    def _put_traits_locked(self, provider_uuid, add, remove):
        with microversions.placement():
            for attempt in range(1, GENERATION_RETRIES + 1):
                current, generation = self._read_traits(provider_uuid)
                traits = sorted((set(current) | set(add)) - set(remove))
                if current == traits:
                    return
                try:
                    self.rp_client.update_resource_provider_traits(
                        provider_uuid, traits=traits,
                        resource_provider_generation=generation)
                    return
                except lib_exc.Conflict:
                    LOG.info('Generation %s of provider %s is stale '
                             '(attempt %d); retrying', generation,
                             provider_uuid, attempt)
                except lib_exc.ServerFault as exc:
                    # Two writers passing the generation check together:
                    # placement answers 500 ResourceProviderConcurrent-
                    # UpdateDetected ("Another thread concurrently updated
                    # the resource provider data. Please retry"), or its
                    # database deadlocks on the generation's UPDATE.
                    if not any(text in str(exc)
                               for text in CONCURRENT_UPDATE):
                        raise
                    LOG.info('Concurrent update of provider %s (attempt '
                             '%d); retrying', provider_uuid, attempt)
        raise lib_exc.TempestException(
            'Could not add %s / remove %s on resource provider %s: '
            'generation conflict %d times in a row'
            % (sorted(add), sorted(remove), provider_uuid,
               GENERATION_RETRIES))

    def _delete_trait(self, trait):
        with microversions.placement():
            test_utils.call_and_ignore_notfound_exc(
                self.placement_client.delete_trait, trait)
        sweep_orphan_traits(self.placement_client, self.flavors_client)
