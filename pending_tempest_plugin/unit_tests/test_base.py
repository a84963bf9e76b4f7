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
"""What tests/base.py checks before a class runs (the personas, what the
class needs) and the skip conditions of common/features.py."""

import types

import fixtures
from oslotest import base
from tempest.lib import exceptions as lib_exc
from tempest import test

from pending_tempest_plugin.common import features
from pending_tempest_plugin.tests import base as base_test
from pending_tempest_plugin.unit_tests import fakes


class TestSkips(fakes.ConfTestCase):

    def test_pending_disabled(self):
        self.assertIsNone(features.pending_disabled(self.group))
        self.set(pending_state_enabled=True,
                 pending_state_microversion='2.105')
        self.assertIn('pending_state_enabled = True',
                      features.pending_disabled(self.group))

    def test_pending_disabled_needs_a_trigger(self):
        self.set(novalidhost_trigger='none')
        self.assertIn('novalidhost_trigger',
                      features.pending_disabled(self.group))

    @staticmethod
    def _conf(ref=None, certs=None, cinder=False, neutron=True):
        return types.SimpleNamespace(
            compute=types.SimpleNamespace(
                certified_image_ref=ref, certified_image_trusted_certs=certs),
            service_available=types.SimpleNamespace(cinder=cinder,
                                                    neutron=neutron))

    def test_trusted_certs(self):
        self.assertIn('certified_image_ref',
                      features.trusted_certs(self._conf()))
        self.assertIn('certified_image_trusted_certs',
                      features.trusted_certs(self._conf(ref='img')))
        self.assertIsNone(features.trusted_certs(
            self._conf(ref='img', certs=['c1'])))

    def test_services(self):
        self.assertIn('[service_available] cinder is False',
                      features.volumes(self._conf()))
        self.assertIsNone(features.volumes(self._conf(cinder=True)))
        self.assertIsNone(features.networks(self._conf()))
        self.assertIn('[service_available] neutron is False',
                      features.networks(self._conf(neutron=False)))


class TestPersonas(base.BaseTestCase):
    """The personas' projects, as pre-provisioned accounts may get them."""

    def test_fitting_projects(self):
        self.assertIsNone(base_test.ConformanceTest.check_personas(
            'p-owner', 'p-owner', 'p-other'))

    def test_reader_of_another_project(self):
        e = self.assertRaises(
            lib_exc.InvalidConfiguration,
            base_test.ConformanceTest.check_personas,
            'p-owner', 'p-x', 'p-other')
        self.assertIn('owner_reader (Tempest project_reader, project p-x) '
                      'is not in the project of owner_member', str(e))

    def test_other_project_is_the_owners(self):
        e = self.assertRaises(
            lib_exc.InvalidConfiguration,
            base_test.ConformanceTest.check_personas,
            'p-owner', 'p-owner', 'p-owner')
        self.assertIn('other_project (Tempest alt) got an account of the '
                      "owner's project p-owner", str(e))

    def test_class_without_reader_or_other_project(self):
        self.assertIsNone(base_test.ConformanceTest.check_personas(
            'p-owner', None, None))
        self.assertRaises(lib_exc.InvalidConfiguration,
                          base_test.ConformanceTest.check_personas,
                          'p-owner', None, 'p-owner')

    def test_each_class_asks_the_personas_it_uses(self):
        # Each persona Tempest creates costs a class projects, users and
        # role assignments (or a pre-provisioned account's lock): a class
        # asks only those its code (or its bases') uses, and every one it
        # uses.
        import inspect
        import os

        import pending_tempest_plugin.tests as tests
        # What asks every persona the class has (base.personas() silently
        # leaves out the ones it lacks), and what asks one by name.
        every = ('check_visibility', 'check_listings', 'personas()',
                 'expectations.PERSONAS')
        uses = {'project_reader': every + ('os_project_reader',
                                           "'owner_reader'"),
                'alt': every + ('os_alt', "'other_project'")}
        top = os.path.dirname(tests.__file__)
        found = {}
        for root, _, files in os.walk(top):
            for name in sorted(files):
                if not (name.startswith('test_') and name.endswith('.py')):
                    continue
                module = __import__(
                    'pending_tempest_plugin.tests.' + os.path.relpath(
                        os.path.join(root, name[:-3]), top).replace(
                            os.sep, '.'), fromlist=['x'])
                for cls in vars(module).values():
                    if (isinstance(cls, type) and cls.__name__.endswith(
                            'Test') and issubclass(cls, test.BaseTestCase)):
                        source = ''.join(
                            inspect.getsource(k) for k in cls.__mro__
                            if k.__module__.startswith(
                                'pending_tempest_plugin.tests.')
                            and k is not base_test.ConformanceTest)
                        found[cls.__name__] = (cls.credentials, source)
        self.assertIn('Cell0RebuildTest', found)
        self.assertEqual(['primary', 'admin'],
                         found['Cell0RebuildTest'][0])
        self.assertIn('project_reader', found['HostStatusTest'][0])
        for name, (credentials, source) in sorted(found.items()):
            for persona, words in uses.items():
                used = any(w in source for w in words)
                self.assertEqual(
                    used, persona in credentials,
                    '%s: credentials %s, but its code %s %s'
                    % (name, credentials,
                       'uses one of' if used else 'uses none of',
                       ', '.join(words)))


class TestRequiredFeatures(base.BaseTestCase):
    """A class skips as a whole, in skip_checks, for what it needs."""

    def setUp(self):
        super().setUp()
        # Only ConformanceTest's own checks run: Tempest's need a cloud.
        self.useFixture(fixtures.MockPatchObject(
            test.BaseTestCase, 'skip_checks'))
        self.useFixture(fixtures.MockPatchObject(
            base_test, 'CONF', types.SimpleNamespace(
                service_available=types.SimpleNamespace(nova=True),
                compute=types.SimpleNamespace(min_microversion=None,
                                              max_microversion=None))))
        self.useFixture(fixtures.MockPatchObject(
            features, 'config_problems', return_value=[]))

    def test_first_missing_feature_skips_the_class(self):
        seen = []

        def configured():
            seen.append('configured')

        def missing():
            seen.append('missing')
            return 'set [nova_conformance] x'

        def not_reached():
            seen.append('not reached')

        class Needs(base_test.ConformanceTest):
            required_features = (configured, missing, not_reached)

        e = self.assertRaises(Needs.skipException, Needs.skip_checks)
        self.assertEqual('set [nova_conformance] x', str(e))
        self.assertEqual(['configured', 'missing'], seen)

    def test_everything_configured_runs(self):
        class Needs(base_test.ConformanceTest):
            required_features = (lambda: None, lambda: None)

        self.assertIsNone(Needs.skip_checks())
        self.assertIsNone(base_test.ConformanceTest.skip_checks())
