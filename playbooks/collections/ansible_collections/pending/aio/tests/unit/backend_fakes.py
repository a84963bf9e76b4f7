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
"""A stand-in for subprocess.run in aio_backends (no backend needed)."""

from unittest import mock

import fixtures
from oslotest import base
import yaml

from ansible_collections.pending.aio.plugins.module_utils import (
    aio_backends)


class FakeRun(object):
    """Answers each argv by the first rule whose words it contains.

    rules: [(words, stdout, returncode)].  Records every call as
    (argv, input, env).
    """

    def __init__(self, rules):
        self.rules = rules
        self.calls = []

    def __call__(self, argv, input=None, env=None, **kw):
        self.calls.append((list(argv), input, env))
        for words, stdout, rc, *stderr in self.rules:
            if all(w in argv for w in words):
                return mock.Mock(returncode=rc, stdout=stdout,
                                 stderr=stderr[0] if stderr else '')
        return mock.Mock(returncode=0, stdout='', stderr='')

    def argvs(self):
        return [argv for argv, _, _ in self.calls]

    def ran(self, word):
        """The calls whose argv holds word."""
        return [c for c in self.calls if word in c[0]]


class BackendTestCase(base.BaseTestCase):

    def setUp(self):
        super().setUp()
        self.tmp = self.useFixture(fixtures.TempDir()).path

    def fake(self, rules):
        run = FakeRun(rules)
        self.useFixture(fixtures.MockPatchObject(
            aio_backends.subprocess, 'run', side_effect=run))
        return run

    def assertNotInArgv(self, secret, run):
        for argv in run.argvs():
            self.assertFalse(any(secret in word for word in argv), argv)

    def assertDocumentsItsOptions(self, module):
        """DOCUMENTATION (as ansible-doc reads it) matches ARGUMENT_SPEC."""
        def options(doc):
            return {name: (o.get('type'), bool(o.get('required')),
                           bool(o.get('no_log')),
                           options(o.get('suboptions')
                                   or o.get('options') or {}))
                    for name, o in doc.items()}
        documented = yaml.safe_load(module.DOCUMENTATION)['options']
        self.assertEqual(options(module.ARGUMENT_SPEC), options(documented))
        for name in ('EXAMPLES', 'RETURN'):
            self.assertTrue(yaml.safe_load(getattr(module, name)))
