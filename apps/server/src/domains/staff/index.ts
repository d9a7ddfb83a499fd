// staff: the console's Staff page (users, the mail outbox, failed clusters), for staff only. The
// top domain: it reads the others through their faces. Other domains import this file only.
export { staffModule } from './module.js';
