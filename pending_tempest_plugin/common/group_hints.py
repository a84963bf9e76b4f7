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
"""A servers client that reads the scheduler hints of a server group member.

From microversion 2.100 nova shows a server's ``scheduler_hints`` as its
RequestSpec keeps them: every value a list (``RequestSpec._from_hints``),
``group`` included, on stock nova as on the reference series.  Tempest's
response schemas for 2.100 and later type ``group`` as a string, so
Tempest's servers client cannot show, list or rebuild a server created in a
server group at those microversions.  A client of :func:`servers_client_of`
validates every response with Tempest's schemas with that one key relaxed
(a string or a list of strings); nothing else of the schemas changes.
"""

import copy

_UUID = {'type': 'string', 'format': 'uuid'}
_GROUP = {'oneOf': [_UUID, {'type': 'array', 'items': _UUID}]}


# Tempest's schemas are module constants: each is relaxed once.
_RELAXED = {}


def relaxed(schema):
    """A copy of ``schema`` whose scheduler_hints.group may be a list."""
    if isinstance(schema, dict) and 'response_body' in schema:
        key = id(schema)
        if key not in _RELAXED:
            _RELAXED[key] = (schema, _relaxed(schema))
        return _RELAXED[key][1]
    return _relaxed(schema)


def _relaxed(schema):
    if isinstance(schema, list):
        return [_relaxed(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    result = dict((key, _relaxed(value)) for key, value in schema.items())
    hints = (result.get('properties') or {}).get('scheduler_hints')
    if isinstance(hints, dict) and 'group' in hints.get('properties', {}):
        hints['properties']['group'] = _GROUP
    return result


def servers_client_of(manager):
    """A copy of ``manager``'s servers client reading group hints.

    The same client (endpoint, credentials, HTTP pool), its responses
    validated against Tempest's schemas :func:`relaxed`.
    """
    client = copy.copy(manager.servers_client)
    validate = client.validate_response
    client.validate_response = (
        lambda schema, resp, body: validate(relaxed(schema), resp, body))
    return client
