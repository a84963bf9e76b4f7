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
"""The servers client that reads a server group member's hints."""

from unittest import mock

import jsonschema
from oslotest import base
from tempest.lib.api_schema.response.compute.v2_100 import servers

from pending_tempest_plugin.common import group_hints

UUID = '9b4bec7a-7cf0-4f7d-b989-8fa922544bce'


class TestRelaxed(base.BaseTestCase):

    def body(self, group):
        return {'server': {'scheduler_hints': {'group': group}}}

    def hints_schema(self, schema):
        return schema['response_body']['properties']['server'][
            'properties']['scheduler_hints']

    def test_group_as_nova_sends_it(self):
        tempest = self.hints_schema(servers.get_server)
        ours = self.hints_schema(group_hints.relaxed(servers.get_server))
        # Tempest's schema refuses the list nova answers; ours takes it,
        # and the string Tempest expects.
        self.assertRaises(jsonschema.ValidationError, jsonschema.validate,
                          {'group': [UUID]}, tempest)
        jsonschema.validate({'group': [UUID]}, ours)
        jsonschema.validate({'group': UUID}, ours)
        self.assertRaises(jsonschema.ValidationError, jsonschema.validate,
                          {'group': 5}, ours)
        # Only that key: Tempest's schema is left as it was.
        self.assertEqual({'type': 'string', 'format': 'uuid'},
                         tempest['properties']['group'])
        self.assertEqual(tempest['properties']['same_host'],
                         ours['properties']['same_host'])

    def test_client_validates_with_the_relaxed_schema(self):
        seen = []

        class Client(object):
            def validate_response(self, schema, resp, body):
                seen.append(schema)

        original = Client()
        client = group_hints.servers_client_of(
            mock.Mock(servers_client=original))
        self.assertIsNot(original, client)
        client.validate_response(servers.get_server, 'resp', 'body')
        original.validate_response(servers.get_server, 'resp', 'body')
        self.assertEqual([group_hints.relaxed(servers.get_server),
                          servers.get_server], seen)
        self.assertNotEqual(seen[0], seen[1])
