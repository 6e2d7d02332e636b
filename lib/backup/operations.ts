import { defineOperation } from '@/lib/api/operation'

export const downloadBackup = defineOperation({
  id: 'downloadBackup',
  method: 'GET',
  path: '/backup',
  summary:
    'A backup of the whole installation as one zip ' +
    '(the database as its own dump tool writes it, ' +
    'and every stored file), consistent while the ' +
    'service runs; `npm run restore` brings it back',
  tag: 'Operations',
  auth: 'admin',
  produces: 'application/zip',
})
