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
"""Set a service client microversion for a few calls, then put it back.

Tempest's service clients read a module-global microversion.  The helpers
need, for instance, placement 1.6 for traits or compute 2.53 for os-services
updates, while the test itself runs at another microversion: these context
managers restore whatever was set before, unlike APIMicroversionFixture,
which resets every service to None when it is cleaned up.
"""

import contextlib

from tempest.lib.services.compute import base_compute_client
from tempest.lib.services.placement import base_placement_client

# Traits on resource providers and the ``resources`` filter.
PLACEMENT_TRAITS = '1.6'
# os-services addressed by UUID, with status and forced_down in one PUT.
COMPUTE_SERVICES = '2.53'


@contextlib.contextmanager
def _module_global(module, name, version):
    previous = getattr(module, name)
    setattr(module, name, version)
    try:
        yield
    finally:
        setattr(module, name, previous)


def placement(version=PLACEMENT_TRAITS):
    return _module_global(base_placement_client, 'PLACEMENT_MICROVERSION',
                          version)


def compute(version=COMPUTE_SERVICES):
    return _module_global(base_compute_client, 'COMPUTE_MICROVERSION',
                          version)
