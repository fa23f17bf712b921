// `npm run dev`: the API with reload (tsx watch) on :8080 and Vite with HMR on :5173 (proxying the API).
import { spawn } from 'node:child_process';

const children = [
  spawn('npm', ['run', 'dev', '-w', '@chorus/server'], {
    stdio: 'inherit',
    // Pages come from Vite's server here: its origin is ours too (auth and the origin check).
    env: {
      ...process.env,
      NODE_ENV: 'development',
      TRUSTED_ORIGINS: [process.env.TRUSTED_ORIGINS, 'http://localhost:5173']
        .filter(Boolean)
        .join(','),
    },
  }),
  spawn('npm', ['run', 'dev', '-w', '@chorus/web'], { stdio: 'inherit' }),
];
const stop = () => children.forEach((c) => c.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const c of children) c.on('exit', (code) => code && stop());
