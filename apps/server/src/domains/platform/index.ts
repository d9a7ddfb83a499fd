// platform: what the server says of itself (health, deployment, docs) and the Python client it
// serves. It knows no other domain. Other domains import this file only.
export { platformModule } from './module.js';
