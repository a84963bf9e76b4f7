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
"""Cell0 rebuilds on a cloud of several cells (nova's cells v2).

The spec: *Enable Rebuild for Instances in cell0*.  A server buried in
cell0 belongs to no cell; its rebuild must create it in the cell of the
host the scheduler picked, not in the first cell by habit.  The API does not
say which cell a host is in: the operator claims it (``[nova_conformance]
compute_host_cells``), and these tests need hosts of two cells among
``capacity_hosts``.  Each rebuilt server's capacity appears on one host
only (a trigger of its own: a private flavor requiring a trait that only
that host's provider gets), so where it lands is decided, cell by cell, in
reverse order of the cells' names (a cloud that creates every rebuilt
server in the first cell, cell1, fails on the first server).
"""

from tempest import config
from tempest.lib import decorators

from pending_tempest_plugin.common import checks
from pending_tempest_plugin.common import features
from pending_tempest_plugin.common import markers
from pending_tempest_plugin.common import microversions
from pending_tempest_plugin.common import waiters
from pending_tempest_plugin.tests.api.compute import test_cell0_rebuild

CONF = config.CONF


class Cell0RebuildCellsTest(test_cell0_rebuild.Cell0RebuildBase):
    """Rebuilds landing in each cell; the quota counted across them.

    The class's project (Tempest's credentials are per class) holds only
    the servers of the test running: the quota test counts them.
    """

    required_features = (features.two_cells,)

    def _cells(self):
        """[(cell, host)], one capacity host per claimed cell.

        The cells in reverse order of their names (cell2 before cell1):
        the first cell by habit comes last.
        """
        cells = features.host_cells()
        return [(cell, cells[cell][0]) for cell in sorted(cells,
                                                          reverse=True)]

    def _rebuilt_in(self, cell, host):
        """A server buried, then rebuilt where only ``host`` has capacity.

        Fails unless it ends ACTIVE on ``host``, UP, with nothing of it
        left in cell0 and its allocations right.
        """
        trigger, server = self._buried()
        trigger.add_capacity(trigger.pick_provider(host))
        body = self.rebuild_to_active(server['id'])
        self.assertEqual(
            host, body.get('OS-EXT-SRV-ATTR:host'),
            'Server %s rebuilt where only %s (cell %s) has capacity: '
            'expected it there, got host %r' % (
                server['id'], host, cell, body.get('OS-EXT-SRV-ATTR:host')))
        self._check_rebuilt(server['id'])
        return body

    def _admin_listing(self, ids):
        """{id: entry} of one admin detail listing of the owner's servers."""
        with self.at(microversions.HOST_STATUS_MICROVERSION):
            listed = self.admin_servers.list_servers(
                detail=True, all_tenants=True,
                tenant_id=self.owner_project_id)['servers']
        return dict((s['id'], s) for s in listed if s['id'] in ids)

    @decorators.idempotent_id('5c0b7a3e-2f94-4d1a-8e6b-93a1d4f7c2e5')
    @markers.requirements('RB-49')
    def test_rebuilds_land_in_each_cell(self):
        """Rebuilt into each cell in turn: shown, listed, changed, deleted.

        Two servers buried in cell0; the first rebuilt where only a host
        of the last claimed cell has capacity, the second where only a
        host of the first one has.  Each is then shown (same ID, its host,
        host_status UP), listed in one admin listing with the other (each
        with its own host), renamed by its owner, its rebuild action and
        events read, and deleted leaving nothing: every request reaches
        the record in the cell its host is in.
        """
        placed = dict((self._rebuilt_in(cell, host)['id'], (cell, host))
                      for cell, host in self._cells())
        problems = []
        listed = self._admin_listing(set(placed))
        for server_id, (cell, host) in sorted(placed.items()):
            where = 'server %s rebuilt into %s (cell %s)' % (server_id,
                                                             host, cell)
            entry = listed.get(server_id)
            if entry is None:
                problems.append('%s: not in the admin listing of its '
                                'owner\'s servers' % where)
            elif (entry.get('OS-EXT-SRV-ATTR:host'), entry.get('status'),
                  entry.get('host_status')) != (host, 'ACTIVE', 'UP'):
                problems.append(
                    '%s: listed on host %r, %s, host_status %r; expected '
                    '%s, ACTIVE, UP' % (
                        where, entry.get('OS-EXT-SRV-ATTR:host'),
                        entry.get('status'), entry.get('host_status'),
                        host))
            name = '%s-renamed' % server_id[:8]
            self.owner_servers.update_server(server_id, name=name)
            shown = self.show(server_id)
            if shown.get('name') != name:
                problems.append('%s: renamed %s by its owner, shown as %r'
                                % (where, name, shown.get('name')))
            actions, events = self.instance_actions(server_id, 'rebuild')
            names = sorted(a['action'] for a in actions)
            if names != ['rebuild'] or not events:
                problems.append('%s: actions %s with rebuild events %s; '
                                'expected the rebuild action (the create '
                                'went with the cell0 record, '
                                'interp-instance-actions) and its events'
                                % (where, names, events))
        self.assertEqual([], problems)
        for server_id in sorted(placed):
            self.delete_leaving_nothing(server_id)

    @decorators.idempotent_id('a4e1f6d2-7b38-4c95-b0d7-1e6c2f8a9b34')
    @markers.requirements('RB-50')
    def test_quota_counts_the_servers_of_every_cell(self):
        """Servers in both cells count, each once, against a rebuild.

        One server rebuilt into each claimed cell: the owner's instances
        quota in use is the number of its servers (each counted once: the
        cell0 record of a rebuilt server is gone).  A third server is
        buried; the instances quota is set to what the owner's servers
        use, so the rebuild of the third does not fit: the conductor,
        counting the servers of every cell, refuses it (ERROR, no host,
        interp-quota-recheck).  A count that missed a cell would let it
        build.  With room for exactly one more server it is rebuilt: a
        count that took a server twice would refuse it again.
        """
        placed = [self._rebuilt_in(cell, host)['id']
                  for cell, host in self._cells()]
        in_use = self.others_usage('instances')
        self.assertEqual(
            len(placed), in_use,
            'Instances in use by the owner, whose servers are %s (one '
            'rebuilt into each cell): expected %d, each counted once, got '
            '%d' % (', '.join(placed), len(placed), in_use))
        trigger, server = self._buried()
        limit = in_use + self.need(server['id'], 'instances') - 1
        when = (' (instances quota %d: %d servers in %d cells, one buried)'
                % (limit, len(placed), len(placed)))
        restore = self.set_quota(instances=limit)
        trigger.add_capacity()
        self.rebuild(server['id'])
        body = self.wait_status(server['id'], waiters.TERMINAL | {'ACTIVE'})
        problems = []
        if body.get('OS-EXT-SRV-ATTR:host') or body['status'] != 'ERROR':
            problems.append(
                'the rebuild the quota did not allow%s: expected ERROR and '
                'no host, got %s on host %r' % (
                    when, waiters.describe(body),
                    body.get('OS-EXT-SRV-ATTR:host')))
        limit_now, in_use_now = self.usage('instances')
        overrun = checks.quota_overrun('instances', limit_now, in_use + 1,
                                       in_use_now)
        if overrun:
            problems.append(overrun + when)
        self.assertEqual([], problems)
        # Room for exactly this server: a count that took any server of
        # any cell twice would refuse it again.
        restore()
        self.set_quota(instances=limit + 1)
        self.rebuild_to_active(server['id'])
        self._check_rebuilt(server['id'])
