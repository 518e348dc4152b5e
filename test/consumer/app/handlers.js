// The workflow's handlers, plain CommonJS.
exports.split = async ({ text }) => ({ words: text.split(/\s+/).filter(Boolean) });
exports.shout = async (word) => word.toUpperCase();
exports.join = async (words) => ({ shouted: words.join(' '), count: words.length });
