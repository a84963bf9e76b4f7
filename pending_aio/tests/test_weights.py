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
"""The class weights the stages give the runner's phases load."""

from oslotest import base

from pending_aio.stages import conformance
from pending_aio.stages import functional
from pending_tempest_plugin.runner import phases


class TestWeights(base.BaseTestCase):

    def test_upstream_subset_weights_load(self):
        # The functional stage's file for the upstream Tempest subset.
        weights = phases.all_weights([functional.UPSTREAM_WEIGHTS])
        upstream = [c for c in weights if c.startswith('tempest.api.')]
        self.assertGreater(len(upstream), 10)
        self.assertTrue(all(weights[c] > 0 for c in upstream))

    def test_conformance_legs_weights_name_suite_classes(self):
        # The partial legs' own weights (pending-conformance run
        # --weights) load, and name only classes of the suite.
        suite = phases.load_weights()
        legs = [leg for leg in conformance.LEGS if leg.weights]
        self.assertEqual(1, len(legs))
        for leg in legs:
            own = phases.load_weights(leg.weights)
            self.assertTrue(own)
            self.assertEqual([], sorted(set(own) - set(suite)))
            self.assertTrue(all(v >= 0 for v in own.values()))
