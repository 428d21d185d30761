import 'reflect-metadata';
// Services that tests spawn (npm start, api, worker) inherit this: no starter import unless a test asks for it.
process.env.STARTER_DATA ??= 'false';
