# Licensed under the Apache License, Version 2.0 (the "License"); you may
# not use this file except in compliance with the License. You may obtain
# a copy of the License at
#
#      http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the
# License for the specific language governing permissions and limitations
# under the License.

extensions = [
    'openstackdocstheme',
    'reno.sphinxext',
]
openstackdocs_repo_name = 'x/pending-tempest-plugin'
openstackdocs_bug_project = 'pending-tempest-plugin'
openstackdocs_auto_name = False
source_suffix = '.rst'
master_doc = 'index'
project = 'pending-tempest-plugin Release Notes'
copyright = '2026, The pending-tempest-plugin Authors'
html_theme = 'openstackdocs'
