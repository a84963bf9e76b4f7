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
    'sphinx.ext.autodoc',
    'openstackdocstheme',
]
openstackdocs_repo_name = 'x/pending-tempest-plugin'
openstackdocs_bug_project = 'pending-tempest-plugin'
openstackdocs_auto_name = False
source_suffix = '.rst'
master_doc = 'index'
project = 'pending-tempest-plugin'
copyright = '2026, The pending-tempest-plugin Authors'
add_module_names = True
pygments_style = 'native'
html_theme = 'openstackdocs'
exclude_patterns = ['reference/*.inc']
