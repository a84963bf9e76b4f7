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
"""Take a cell of nova's cells v2 down, and always back up.

``stop`` runs ``[nova_conformance] cell_stop_command`` (the cell's database
stops; its services keep running, so nova reads the cell as down) after
registering, first, the cleanup that runs ``cell_start_command`` and waits
until every nova-compute of the cell reads ``up`` again in os-services:
the next test finds the cell as this one did, even when the stop command
failed half way.  Only the cells ``disruptive_cells`` lists are ever
stopped.  The stop must make the database refuse connections (a stopped
service does): one that silently drops them makes each of nova's calls to
the cell wait its cell timeout (60 s).
"""

from tempest import config
from tempest.lib import exceptions as lib_exc

from pending_tempest_plugin.common import host_control
from pending_tempest_plugin.common import polling
from pending_tempest_plugin.common import waiters

CONF = config.CONF


class CellControl(object):

    def __init__(self, test, services_client, runner=None):
        """:param services_client: an admin os-services client."""
        self.test = test
        self._host_control = host_control.HostControl(
            test, services_client,
            **({'runner': runner} if runner else {}))

    def stop(self, cell, hosts):
        """Stop ``cell``'s database; ``hosts``: its compute hosts.

        They must read ``up`` before (a cell already down is not this
        test's to take down) and are waited for after the restore.
        """
        host_control.require_listed('disruptive_cells', cell,
                                    'take cell %s down' % cell, 'no cell')
        for option in ('cell_stop_command', 'cell_start_command'):
            self._host_control.template(option)
        self.wait_up(cell, hosts)
        self.test.addCleanup(self.restore, cell, hosts)
        self._host_control.run_option('cell_stop_command', cell=cell)

    def restore(self, cell, hosts):
        """Start the cell's database; wait until its computes read up."""
        self._host_control.run_option('cell_start_command', cell=cell)
        self.wait_up(cell, hosts)

    def wait_up(self, cell, hosts):
        """Until os-services shows each of ``hosts`` up.

        A cell that is down lists none of its services, or records without
        a state: not up yet.
        """
        def states():
            found = {}
            for host in hosts:
                try:
                    found[host] = self._host_control.service(host).get('state')
                except lib_exc.InvalidConfiguration:
                    found[host] = 'not listed'
            return found

        timeout = CONF.nova_conformance.service_state_timeout
        polling.poll(
            states, lambda found: set(found.values()) == {'up'}, timeout,
            waiters.poll_interval(),
            what='nova-compute of cell %s (%s) up' % (cell, ', '.join(hosts)),
            describe=lambda found: ', '.join(
                '%s %s' % item for item in sorted(found.items())),
            timed_out=lambda found: CellStateTimeout(
                cell=cell, timeout=timeout, actual=found))


class CellStateTimeout(lib_exc.TimeoutException):
    message = ('the nova-compute services of cell %(cell)s did not read up '
               'within %(timeout)s s; os-services: %(actual)s')
