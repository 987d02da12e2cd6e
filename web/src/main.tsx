// The web client's entry: render the page and start the event loop.
import { render } from 'preact';
import { App } from './app.js';
import { start } from './store.js';
import './style.css';

render(<App />, document.getElementById('app')!);
start();
