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
"""The embedded cloud's virt driver: nova's fake driver, with builds that fail
on request.

A failed build that is not a lack of capacity (a hypervisor that cannot
spawn) must end in ERROR, not PENDING, and such a server is not one the
cell0 rebuild takes (the specs' PEND-03 and RB-12).  Nothing in the API can
make a real hypervisor fail, so this driver fails the spawn of every server
whose metadata holds ``aio_fail_build=true``, on every host: nova
reschedules to the alternate host, which fails too, and the conductor gives
up with MaxRetriesExceeded.  Every other server is spawned by nova's
``fake.FakeDriverWithoutFakeNodes`` unchanged.  The embedded cloud declares
the key as ``[nova_conformance] build_failure_metadata``.
"""

from nova import exception
from nova.virt import fake

FAIL_KEY = 'aio_fail_build'
FAIL_VALUE = 'true'


class BuildFailureError(exception.NovaException):
    msg_fmt = ('The embedded cloud failed this build on purpose: the server '
               'metadata holds %(key)s=%(value)s')


class FailingBuildFakeDriver(fake.FakeDriverWithoutFakeNodes):
    """FakeDriverWithoutFakeNodes whose spawn fails for servers that ask."""

    def spawn(self, context, instance, image_meta, injected_files,
              admin_password, allocations, network_info=None,
              block_device_info=None, power_on=True, accel_info=None):
        if (instance.metadata or {}).get(FAIL_KEY) == FAIL_VALUE:
            # Any exception but the few nova aborts on makes the compute
            # reschedule the build to an alternate host.
            raise BuildFailureError(key=FAIL_KEY, value=FAIL_VALUE)
        super().spawn(context, instance, image_meta, injected_files,
                      admin_password, allocations, network_info=network_info,
                      block_device_info=block_device_info, power_on=power_on,
                      accel_info=accel_info)
