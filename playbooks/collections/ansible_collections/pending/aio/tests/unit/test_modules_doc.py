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
"""Each module of the collection documents itself as ansible-doc reads it."""

import ast
import os

from oslotest import base
import yaml

import aio_testcase


class TestModuleDocs(base.BaseTestCase):
    """Each module documents itself as ansible-doc reads it."""

    def test_documentation_parses_and_names_the_module(self):
        modules = os.path.join(aio_testcase.COLLECTION, 'plugins', 'modules')
        names = sorted(f[:-3] for f in os.listdir(modules)
                       if f.endswith('.py'))
        self.assertIn('files', names)
        for name in names:
            with open(os.path.join(modules, name + '.py')) as f:
                tree = ast.parse(f.read())
            docs = {n.targets[0].id: yaml.safe_load(n.value.value)
                    for n in tree.body if isinstance(n, ast.Assign)
                    and n.targets[0].id in ('DOCUMENTATION', 'RETURN')}
            self.assertEqual(name, docs['DOCUMENTATION']['module'])
            self.assertTrue(docs['DOCUMENTATION']['short_description'])
            # ansible-doc fails on a module without a description.
            self.assertTrue(docs['DOCUMENTATION'].get('description'), name)
