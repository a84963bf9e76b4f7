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
"""The check that no port the cloud needs is held by another program.

``aio_ports``: a port held by a process outside our supervisord is named,
with its holder.
"""

import os
import socket

import aio_testcase
from ansible_collections.pending.aio.plugins.module_utils import aio_common
from ansible_collections.pending.aio.plugins.module_utils import aio_ports


class TestPorts(aio_testcase.AioTestCase):

    def test_port_held_by_another_process_names_service_and_holder(self):
        sock = socket.socket()
        self.addCleanup(sock.close)
        sock.bind(('127.0.0.1', 0))
        sock.listen(1)
        port = sock.getsockname()[1]
        exc = self.assertRaises(
            aio_common.AioError, aio_ports.check_ports, {'keystone': port},
            self.path('none.pid'))
        self.assertIn('port %d (needed by keystone) is already in use by '
                      'pid %d' % (port, os.getpid()), str(exc))
        self.assertIn('aio_ports', str(exc))

    def test_free_port_passes(self):
        sock = socket.socket()
        sock.bind(('127.0.0.1', 0))
        port = sock.getsockname()[1]
        sock.close()
        aio_ports.check_ports({'glance': port}, self.path('none.pid'))
