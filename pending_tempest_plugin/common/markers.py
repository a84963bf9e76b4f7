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
"""Markers a conformance test carries besides its idempotent_id.

A test declares the catalogue requirements it verifies::

    @decorators.idempotent_id('...')
    @markers.requirements('HS-05', 'HS-01')
    def test_host_status_up(self):
        ...

The catalogue check (``conformance/catalogue.py``) reads the decorator
statically from the source, so the arguments must be string literals.
"""

ATTRIBUTE = 'conformance_requirements'


def requirements(*requirement_ids):
    """Declare the catalogue requirements (``HS-01``, ...) a test verifies."""
    if not requirement_ids:
        raise ValueError('requirements() needs at least one requirement id')
    for rid in requirement_ids:
        if not isinstance(rid, str):
            raise TypeError('requirement ids are strings, got %r' % (rid,))

    def decorator(func):
        setattr(func, ATTRIBUTE, tuple(requirement_ids))
        return func
    return decorator
