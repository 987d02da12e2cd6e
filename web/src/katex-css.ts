// The chunk that carries KaTeX's CSS; Vite emits its fonts as hashed assets beside it.
import 'katex/dist/katex.min.css';
